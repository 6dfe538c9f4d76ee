from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.payment_method import PaymentMethod
from ..types import UNSET, Unset

T = TypeVar("T", bound="NewPayment")


@_attrs_define
class NewPayment:
    """Optional. How the trip was paid; never a full card number.

    Attributes:
        method (PaymentMethod): How the trip was paid. Closed where a client sends it (`NewTrip`); a response reports it
            as
            `ReportedPaymentMethod`, which is open.
        brand (str | Unset): The card or wallet brand, 1 to 32 UTF-8 bytes without NUL.
        last4 (str | Unset): The card's last four digits, exactly 4 ASCII digits; not allowed with `cash` (`422`).
    """

    method: PaymentMethod
    brand: str | Unset = UNSET
    last4: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        method = self.method.value

        brand = self.brand

        last4 = self.last4

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "method": method,
            }
        )
        if brand is not UNSET:
            field_dict["brand"] = brand
        if last4 is not UNSET:
            field_dict["last4"] = last4

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        method = PaymentMethod(d.pop("method"))

        brand = d.pop("brand", UNSET)

        last4 = d.pop("last4", UNSET)

        new_payment = cls(
            method=method,
            brand=brand,
            last4=last4,
        )

        new_payment.additional_properties = d
        return new_payment

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
