from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.fare_line_kind import FareLineKind

T = TypeVar("T", bound="NewFareLine")


@_attrs_define
class NewFareLine:
    """One line item of the fare; a `promotion` is 0 or negative, every other kind 0 or positive.

    Attributes:
        kind (FareLineKind): What a line of the fare's breakdown is for. Closed where a client sends it (`NewTrip`); a
            response
            reports it as `ReportedFareLineKind`, which is open. `promotion` lines are 0 or negative, all others 0
            or positive.
        amount_minor (int): In the fare's currency and minor unit; at most 10^13 either way.
    """

    kind: FareLineKind
    amount_minor: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        amount_minor = self.amount_minor

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "amount_minor": amount_minor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        kind = FareLineKind(d.pop("kind"))

        amount_minor = d.pop("amount_minor")

        new_fare_line = cls(
            kind=kind,
            amount_minor=amount_minor,
        )

        new_fare_line.additional_properties = d
        return new_fare_line

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
