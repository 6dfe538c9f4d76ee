from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.new_fare_line import NewFareLine


T = TypeVar("T", bound="NewTripFare")


@_attrs_define
class NewTripFare:
    """
    Attributes:
        amount_minor (int): The fare in the currency's minor unit; at most 10^13, which admits a fare of 100,000 US
            dollars
            even in a currency with about 10^8 minor units to the dollar; larger values get `422`.
        currency (str): An active ISO 4217 code; three upper-case letters that name no currency get `422`.
        breakdown (list[NewFareLine] | Unset): Optional: 1 to 16 line items that sum exactly to `amount_minor`;
            otherwise `422` with `param`
            `fare.breakdown`.
    """

    amount_minor: int
    currency: str
    breakdown: list[NewFareLine] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount_minor = self.amount_minor

        currency = self.currency

        breakdown: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.breakdown, Unset):
            breakdown = []
            for breakdown_item_data in self.breakdown:
                breakdown_item = breakdown_item_data.to_dict()
                breakdown.append(breakdown_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount_minor": amount_minor,
                "currency": currency,
            }
        )
        if breakdown is not UNSET:
            field_dict["breakdown"] = breakdown

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.new_fare_line import NewFareLine

        d = dict(src_dict)
        amount_minor = d.pop("amount_minor")

        currency = d.pop("currency")

        _breakdown = d.pop("breakdown", UNSET)
        breakdown: list[NewFareLine] | Unset = UNSET
        if _breakdown is not UNSET:
            breakdown = []
            for breakdown_item_data in _breakdown:
                breakdown_item = NewFareLine.from_dict(breakdown_item_data)

                breakdown.append(breakdown_item)

        new_trip_fare = cls(
            amount_minor=amount_minor,
            currency=currency,
            breakdown=breakdown,
        )

        new_trip_fare.additional_properties = d
        return new_trip_fare

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
