from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TripStatsBucketTotalTipsMinor")


@_attrs_define
class TripStatsBucketTotalTipsMinor:
    """Sum of the tips added after the rides, per currency as `total_fare_minor` (a currency whose
    trips got no tip shows 0). Added in 1.7.0, so a client built from an older spec never sees it.

    """

    additional_properties: dict[str, int] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        trip_stats_bucket_total_tips_minor = cls()

        trip_stats_bucket_total_tips_minor.additional_properties = d
        return trip_stats_bucket_total_tips_minor

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> int:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: int) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
