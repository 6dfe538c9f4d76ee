from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.trip_stats_by import TripStatsBy
from ..models.trip_stats_group_by import TripStatsGroupBy
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.analyst_filter import AnalystFilter
    from ..models.trip_stats_bucket import TripStatsBucket


T = TypeVar("T", bound="TripStats")


@_attrs_define
class TripStats:
    """Per-period aggregates of the matching trips.

    Attributes:
        data (list[TripStatsBucket]): One bucket per period with matching trips, oldest first.
        group_by (TripStatsGroupBy): The `group_by` sent (or its default), so only a value the client itself chose
            (closed).
        tz (str): The zone the periods are cut in; `UTC` when `tz` was not given.
        filter_ (AnalystFilter): The analyst filter applied, normalized; null for what was not given.
        by (TripStatsBy | Unset): The `by` sent, so only a value the client itself chose (closed); absent when `by` was
            not sent.
            Added in 1.12.0.
    """

    data: list[TripStatsBucket]
    group_by: TripStatsGroupBy
    tz: str
    filter_: AnalystFilter
    by: TripStatsBy | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        group_by = self.group_by.value

        tz = self.tz

        filter_ = self.filter_.to_dict()

        by: str | Unset = UNSET
        if not isinstance(self.by, Unset):
            by = self.by.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
                "group_by": group_by,
                "tz": tz,
                "filter": filter_,
            }
        )
        if by is not UNSET:
            field_dict["by"] = by

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.analyst_filter import AnalystFilter
        from ..models.trip_stats_bucket import TripStatsBucket

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = TripStatsBucket.from_dict(data_item_data)

            data.append(data_item)

        group_by = TripStatsGroupBy(d.pop("group_by"))

        tz = d.pop("tz")

        filter_ = AnalystFilter.from_dict(d.pop("filter"))

        _by = d.pop("by", UNSET)
        by: TripStatsBy | Unset
        if isinstance(_by, Unset):
            by = UNSET
        else:
            by = TripStatsBy(_by)

        trip_stats = cls(
            data=data,
            group_by=group_by,
            tz=tz,
            filter_=filter_,
            by=by,
        )

        trip_stats.additional_properties = d
        return trip_stats

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
