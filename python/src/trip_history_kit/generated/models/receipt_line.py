from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.receipt_line_kind import ReceiptLineKind

T = TypeVar("T", bound="ReceiptLine")


@_attrs_define
class ReceiptLine:
    """One line of the fare on a receipt, labelled and formatted as a `ReceiptAmount` is.

    Attributes:
        kind (ReceiptLineKind | str): A receipt line's kind as a response reports it: one of `ReceiptLineKind` today. An
            open enum: a later
            version may add kinds, so a client shows a line it does not know by its `label` and `amount`.
        label (str): What the line charges for, e.g. `Base fare`.
        amount_minor (int): In the receipt's `currency` and its minor unit; negative for a promotion.
        amount (str): `amount_minor` with its currency, formatted as `display.fare` is.
    """

    kind: ReceiptLineKind | str
    label: str
    amount_minor: int
    amount: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kind: str
        if isinstance(self.kind, ReceiptLineKind):
            kind = self.kind.value
        else:
            kind = self.kind

        label = self.label

        amount_minor = self.amount_minor

        amount = self.amount

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "label": label,
                "amount_minor": amount_minor,
                "amount": amount,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_kind(data: object) -> ReceiptLineKind | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_reported_receipt_line_kind_type_0 = ReceiptLineKind(
                    data
                )

                return componentsschemas_reported_receipt_line_kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ReceiptLineKind | str, data)

        kind = _parse_kind(d.pop("kind"))

        label = d.pop("label")

        amount_minor = d.pop("amount_minor")

        amount = d.pop("amount")

        receipt_line = cls(
            kind=kind,
            label=label,
            amount_minor=amount_minor,
            amount=amount,
        )

        receipt_line.additional_properties = d
        return receipt_line

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
