from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TripChangePagePage")


@_attrs_define
class TripChangePagePage:
    """
    Attributes:
        has_more (bool): Whether more changes follow `next_since` already; if so, call again with it at once.
        next_since (str): The opaque token of the next call (`since`); keep the latest. Without `since`, it stands for
            now.
    """

    has_more: bool
    next_since: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        has_more = self.has_more

        next_since = self.next_since

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "has_more": has_more,
                "next_since": next_since,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        has_more = d.pop("has_more")

        next_since = d.pop("next_since")

        trip_change_page_page = cls(
            has_more=has_more,
            next_since=next_since,
        )

        trip_change_page_page.additional_properties = d
        return trip_change_page_page

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
