from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.vehicle import Vehicle


T = TypeVar("T", bound="Driver")


@_attrs_define
class Driver:
    """Detail form only, when recorded: the driver as the rider may see them.

    Attributes:
        first_name (str): 1 to 64 UTF-8 bytes.
        vehicle (Vehicle | Unset): The driver's vehicle; absent when not recorded. Each member 1 to 64 UTF-8 bytes.
    """

    first_name: str
    vehicle: Vehicle | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        first_name = self.first_name

        vehicle: dict[str, Any] | Unset = UNSET
        if not isinstance(self.vehicle, Unset):
            vehicle = self.vehicle.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "first_name": first_name,
            }
        )
        if vehicle is not UNSET:
            field_dict["vehicle"] = vehicle

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.vehicle import Vehicle

        d = dict(src_dict)
        first_name = d.pop("first_name")

        _vehicle = d.pop("vehicle", UNSET)
        vehicle: Vehicle | Unset
        if isinstance(_vehicle, Unset):
            vehicle = UNSET
        else:
            vehicle = Vehicle.from_dict(_vehicle)

        driver = cls(
            first_name=first_name,
            vehicle=vehicle,
        )

        driver.additional_properties = d
        return driver

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
