from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.fare_line import FareLine


T = TypeVar("T", bound="Fare")


@_attrs_define
class Fare:
    """The fare in the currency's minor unit (cents for USD, yen for JPY): what was charged when the trip was
    recorded, and what the rider paid in the end once the trip's adjustments are added. `breakdown` is in
    a trip's detail form only, and only when it was recorded.

        Attributes:
            amount_minor (int): The fare charged when the trip was recorded; adjustments never change it.
            currency (str): An active ISO 4217 alphabetic code; adjustments are in this currency too.
            total_minor (int): `amount_minor` plus every adjustment (tips, refunds, fare corrections), so what the rider
                paid in
                the end; `display.fare` shows it. Equal to `amount_minor` until the first adjustment.
            tips_minor (int): The sum of the trip's tips; 0 when none.
            refunds_minor (int): The sum of the trip's refunds, 0 or negative; 0 when none.
            breakdown (list[FareLine] | Unset): Detail form only, when recorded: the fare's 1 to 16 line items as recorded,
                in their order; they
                sum to `amount_minor` (adjustments are not line items: see `adjustments`).
    """

    amount_minor: int
    currency: str
    total_minor: int
    tips_minor: int
    refunds_minor: int
    breakdown: list[FareLine] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount_minor = self.amount_minor

        currency = self.currency

        total_minor = self.total_minor

        tips_minor = self.tips_minor

        refunds_minor = self.refunds_minor

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
                "total_minor": total_minor,
                "tips_minor": tips_minor,
                "refunds_minor": refunds_minor,
            }
        )
        if breakdown is not UNSET:
            field_dict["breakdown"] = breakdown

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.fare_line import FareLine

        d = dict(src_dict)
        amount_minor = d.pop("amount_minor")

        currency = d.pop("currency")

        total_minor = d.pop("total_minor")

        tips_minor = d.pop("tips_minor")

        refunds_minor = d.pop("refunds_minor")

        _breakdown = d.pop("breakdown", UNSET)
        breakdown: list[FareLine] | Unset = UNSET
        if _breakdown is not UNSET:
            breakdown = []
            for breakdown_item_data in _breakdown:
                breakdown_item = FareLine.from_dict(breakdown_item_data)

                breakdown.append(breakdown_item)

        fare = cls(
            amount_minor=amount_minor,
            currency=currency,
            total_minor=total_minor,
            tips_minor=tips_minor,
            refunds_minor=refunds_minor,
            breakdown=breakdown,
        )

        fare.additional_properties = d
        return fare

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
