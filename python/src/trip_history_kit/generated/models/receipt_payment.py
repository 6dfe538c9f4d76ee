from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.payment_method import PaymentMethod

T = TypeVar("T", bound="ReceiptPayment")


@_attrs_define
class ReceiptPayment:
    """How the trip was paid, ready to show. Never a full card number.

    Attributes:
        method (PaymentMethod | str): How the trip was paid, as a response reports it: one of `PaymentMethod` today. An
            open enum: a later
            version may add methods, so a client accepts a value it does not know.
        label (str): The brand (or the method's name in the locale's language) and, for a card or wallet, the last four
            digits behind masking dots.
    """

    method: PaymentMethod | str
    label: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        method: str
        if isinstance(self.method, PaymentMethod):
            method = self.method.value
        else:
            method = self.method

        label = self.label

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "method": method,
                "label": label,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_method(data: object) -> PaymentMethod | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_reported_payment_method_type_0 = PaymentMethod(data)

                return componentsschemas_reported_payment_method_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(PaymentMethod | str, data)

        method = _parse_method(d.pop("method"))

        label = d.pop("label")

        receipt_payment = cls(
            method=method,
            label=label,
        )

        receipt_payment.additional_properties = d
        return receipt_payment

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
