from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TripDisplay")


@_attrs_define
class TripDisplay:
    """Finished strings in the `Content-Language` locale, shown as they are.

    Attributes:
        title (str): Where the trip went.
        date (str): The request day in the display zone.
        time (str): The request time of day in the display zone.
        fare (str): The fare's `total_minor` (after tips, refunds and corrections) in its currency.
        distance (str):
        duration (str):
        status (str):
    """

    title: str
    date: str
    time: str
    fare: str
    distance: str
    duration: str
    status: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        title = self.title

        date = self.date

        time = self.time

        fare = self.fare

        distance = self.distance

        duration = self.duration

        status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "title": title,
                "date": date,
                "time": time,
                "fare": fare,
                "distance": distance,
                "duration": duration,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        title = d.pop("title")

        date = d.pop("date")

        time = d.pop("time")

        fare = d.pop("fare")

        distance = d.pop("distance")

        duration = d.pop("duration")

        status = d.pop("status")

        trip_display = cls(
            title=title,
            date=date,
            time=time,
            fare=fare,
            distance=distance,
            duration=duration,
            status=status,
        )

        trip_display.additional_properties = d
        return trip_display

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
