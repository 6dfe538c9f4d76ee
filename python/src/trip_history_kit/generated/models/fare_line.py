from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.fare_line_kind import FareLineKind

T = TypeVar("T", bound="FareLine")


@_attrs_define
class FareLine:
    """One line item of a fare's breakdown.

    Attributes:
        kind (FareLineKind | str): A fare line's kind as a response reports it: one of `FareLineKind` today. An open
            enum: a later
            version may add kinds (an airport fee, say), so a client shows a line it does not know by its amount.
        amount_minor (int): In the fare's currency and minor unit; negative for a promotion.
    """

    kind: FareLineKind | str
    amount_minor: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kind: str
        if isinstance(self.kind, FareLineKind):
            kind = self.kind.value
        else:
            kind = self.kind

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

        def _parse_kind(data: object) -> FareLineKind | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_reported_fare_line_kind_type_0 = FareLineKind(data)

                return componentsschemas_reported_fare_line_kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FareLineKind | str, data)

        kind = _parse_kind(d.pop("kind"))

        amount_minor = d.pop("amount_minor")

        fare_line = cls(
            kind=kind,
            amount_minor=amount_minor,
        )

        fare_line.additional_properties = d
        return fare_line

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
