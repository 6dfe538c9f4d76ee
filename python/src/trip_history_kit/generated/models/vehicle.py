from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Vehicle")


@_attrs_define
class Vehicle:
    """The driver's vehicle; absent when not recorded. Each member 1 to 64 UTF-8 bytes.

    Attributes:
        make (str):
        model (str):
        color (str):
        plate (str):
    """

    make: str
    model: str
    color: str
    plate: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        make = self.make

        model = self.model

        color = self.color

        plate = self.plate

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "make": make,
                "model": model,
                "color": color,
                "plate": plate,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        make = d.pop("make")

        model = d.pop("model")

        color = d.pop("color")

        plate = d.pop("plate")

        vehicle = cls(
            make=make,
            model=model,
            color=color,
            plate=plate,
        )

        vehicle.additional_properties = d
        return vehicle

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
