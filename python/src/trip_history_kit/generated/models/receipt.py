from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.receipt_locale_type_0 import ReceiptLocaleType0
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.receipt_amount import ReceiptAmount
    from ..models.receipt_line import ReceiptLine
    from ..models.receipt_payment import ReceiptPayment
    from ..models.receipt_trip import ReceiptTrip


T = TypeVar("T", bound="Receipt")


@_attrs_define
class Receipt:
    """A trip's receipt in the `Content-Language` locale. `lines` sum to `fare.amount_minor`; `fare` plus
    `tips`, `refunds` and `corrections` (each present only when not zero) make `total`, what the rider
    paid in the end (the trip's `fare.total_minor`).

        Attributes:
            trip_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
            locale (ReceiptLocaleType0 | str): The locale of every label and formatted amount, as `Content-Language` names
                it.
            lines (list[ReceiptLine]): The fare's breakdown as recorded, in order, or one line of kind `fare` when none was;
                never empty.
            fare (ReceiptAmount): An amount of a receipt, labelled and formatted in the `Content-Language` locale.
            total (ReceiptAmount): An amount of a receipt, labelled and formatted in the `Content-Language` locale.
            currency (str): The ISO 4217 code of every amount.
            trip (ReceiptTrip): The ride a receipt is for, as display strings in the `Content-Language` locale; `date` and
                `time` are
                the request's, in the trip's zone or in `tz`.
            tips (ReceiptAmount | Unset): An amount of a receipt, labelled and formatted in the `Content-Language` locale.
            refunds (ReceiptAmount | Unset): An amount of a receipt, labelled and formatted in the `Content-Language`
                locale.
            corrections (ReceiptAmount | Unset): An amount of a receipt, labelled and formatted in the `Content-Language`
                locale.
            payment (ReceiptPayment | Unset): How the trip was paid, ready to show. Never a full card number.
    """

    trip_id: str
    locale: ReceiptLocaleType0 | str
    lines: list[ReceiptLine]
    fare: ReceiptAmount
    total: ReceiptAmount
    currency: str
    trip: ReceiptTrip
    tips: ReceiptAmount | Unset = UNSET
    refunds: ReceiptAmount | Unset = UNSET
    corrections: ReceiptAmount | Unset = UNSET
    payment: ReceiptPayment | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        trip_id = self.trip_id

        locale: str
        if isinstance(self.locale, ReceiptLocaleType0):
            locale = self.locale.value
        else:
            locale = self.locale

        lines = []
        for lines_item_data in self.lines:
            lines_item = lines_item_data.to_dict()
            lines.append(lines_item)

        fare = self.fare.to_dict()

        total = self.total.to_dict()

        currency = self.currency

        trip = self.trip.to_dict()

        tips: dict[str, Any] | Unset = UNSET
        if not isinstance(self.tips, Unset):
            tips = self.tips.to_dict()

        refunds: dict[str, Any] | Unset = UNSET
        if not isinstance(self.refunds, Unset):
            refunds = self.refunds.to_dict()

        corrections: dict[str, Any] | Unset = UNSET
        if not isinstance(self.corrections, Unset):
            corrections = self.corrections.to_dict()

        payment: dict[str, Any] | Unset = UNSET
        if not isinstance(self.payment, Unset):
            payment = self.payment.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "trip_id": trip_id,
                "locale": locale,
                "lines": lines,
                "fare": fare,
                "total": total,
                "currency": currency,
                "trip": trip,
            }
        )
        if tips is not UNSET:
            field_dict["tips"] = tips
        if refunds is not UNSET:
            field_dict["refunds"] = refunds
        if corrections is not UNSET:
            field_dict["corrections"] = corrections
        if payment is not UNSET:
            field_dict["payment"] = payment

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.receipt_amount import ReceiptAmount
        from ..models.receipt_line import ReceiptLine
        from ..models.receipt_payment import ReceiptPayment
        from ..models.receipt_trip import ReceiptTrip

        d = dict(src_dict)
        trip_id = d.pop("trip_id")

        def _parse_locale(data: object) -> ReceiptLocaleType0 | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                locale_type_0 = ReceiptLocaleType0(data)

                return locale_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ReceiptLocaleType0 | str, data)

        locale = _parse_locale(d.pop("locale"))

        lines = []
        _lines = d.pop("lines")
        for lines_item_data in _lines:
            lines_item = ReceiptLine.from_dict(lines_item_data)

            lines.append(lines_item)

        fare = ReceiptAmount.from_dict(d.pop("fare"))

        total = ReceiptAmount.from_dict(d.pop("total"))

        currency = d.pop("currency")

        trip = ReceiptTrip.from_dict(d.pop("trip"))

        _tips = d.pop("tips", UNSET)
        tips: ReceiptAmount | Unset
        if isinstance(_tips, Unset):
            tips = UNSET
        else:
            tips = ReceiptAmount.from_dict(_tips)

        _refunds = d.pop("refunds", UNSET)
        refunds: ReceiptAmount | Unset
        if isinstance(_refunds, Unset):
            refunds = UNSET
        else:
            refunds = ReceiptAmount.from_dict(_refunds)

        _corrections = d.pop("corrections", UNSET)
        corrections: ReceiptAmount | Unset
        if isinstance(_corrections, Unset):
            corrections = UNSET
        else:
            corrections = ReceiptAmount.from_dict(_corrections)

        _payment = d.pop("payment", UNSET)
        payment: ReceiptPayment | Unset
        if isinstance(_payment, Unset):
            payment = UNSET
        else:
            payment = ReceiptPayment.from_dict(_payment)

        receipt = cls(
            trip_id=trip_id,
            locale=locale,
            lines=lines,
            fare=fare,
            total=total,
            currency=currency,
            trip=trip,
            tips=tips,
            refunds=refunds,
            corrections=corrections,
            payment=payment,
        )

        receipt.additional_properties = d
        return receipt

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
