from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReceiptAmount")


@_attrs_define
class ReceiptAmount:
    """An amount of a receipt, labelled and formatted in the `Content-Language` locale.

    Attributes:
        label (str): What the amount is, e.g. `Total`.
        amount_minor (int): In the receipt's `currency` and its minor unit.
        amount (str): `amount_minor` with its currency, formatted as `display.fare` is.
    """

    label: str
    amount_minor: int
    amount: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        label = self.label

        amount_minor = self.amount_minor

        amount = self.amount

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "label": label,
                "amount_minor": amount_minor,
                "amount": amount,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        label = d.pop("label")

        amount_minor = d.pop("amount_minor")

        amount = d.pop("amount")

        receipt_amount = cls(
            label=label,
            amount_minor=amount_minor,
            amount=amount,
        )

        receipt_amount.additional_properties = d
        return receipt_amount

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
