from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.new_vehicle import NewVehicle


T = TypeVar("T", bound="NewDriver")


@_attrs_define
class NewDriver:
    """Optional. The driver as the rider may see them.

    Attributes:
        first_name (str): 1 to 64 UTF-8 bytes without NUL.
        vehicle (NewVehicle | Unset): Optional. The driver's vehicle; each member 1 to 64 UTF-8 bytes without NUL.
    """

    first_name: str
    vehicle: NewVehicle | Unset = UNSET
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
        from ..models.new_vehicle import NewVehicle

        d = dict(src_dict)
        first_name = d.pop("first_name")

        _vehicle = d.pop("vehicle", UNSET)
        vehicle: NewVehicle | Unset
        if isinstance(_vehicle, Unset):
            vehicle = UNSET
        else:
            vehicle = NewVehicle.from_dict(_vehicle)

        new_driver = cls(
            first_name=first_name,
            vehicle=vehicle,
        )

        new_driver.additional_properties = d
        return new_driver

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
