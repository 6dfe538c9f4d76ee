from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ReceiptTrip")


@_attrs_define
class ReceiptTrip:
    """The ride a receipt is for, as display strings in the `Content-Language` locale; `date` and `time` are
    the request's, in the trip's zone or in `tz`.

        Attributes:
            date (str):
            time (str):
            from_ (str): The pickup address, as recorded.
            to (str): The drop-off address, as recorded.
            distance (str):
            duration (str):
            driver (str | Unset): The driver's first name, when recorded.
            vehicle (str | Unset): The car (make and model, colour, plate), when recorded.
    """

    date: str
    time: str
    from_: str
    to: str
    distance: str
    duration: str
    driver: str | Unset = UNSET
    vehicle: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        date = self.date

        time = self.time

        from_ = self.from_

        to = self.to

        distance = self.distance

        duration = self.duration

        driver = self.driver

        vehicle = self.vehicle

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "date": date,
                "time": time,
                "from": from_,
                "to": to,
                "distance": distance,
                "duration": duration,
            }
        )
        if driver is not UNSET:
            field_dict["driver"] = driver
        if vehicle is not UNSET:
            field_dict["vehicle"] = vehicle

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        date = d.pop("date")

        time = d.pop("time")

        from_ = d.pop("from")

        to = d.pop("to")

        distance = d.pop("distance")

        duration = d.pop("duration")

        driver = d.pop("driver", UNSET)

        vehicle = d.pop("vehicle", UNSET)

        receipt_trip = cls(
            date=date,
            time=time,
            from_=from_,
            to=to,
            distance=distance,
            duration=duration,
            driver=driver,
            vehicle=vehicle,
        )

        receipt_trip.additional_properties = d
        return receipt_trip

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
