from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.adjustment_kind import AdjustmentKind

T = TypeVar("T", bound="NewAdjustment")


@_attrs_define
class NewAdjustment:
    """An adjustment to record, in the minor unit of the trip's currency. Unknown members are ignored. Besides
    the constraints below, each a `422 invalid_parameter` naming the member: a `tip` only on a completed
    trip, within the tip window after `completed_at` (`kind`), and the trip's tips together at most twice
    `fare.amount_minor`; a `refund` never takes `fare.total_minor` below 0; a `fare_correction` keeps it
    between 0 and 10^13 (`amount_minor`). No string may hold a payment card number, as in `NewTrip`.

        Attributes:
            kind (AdjustmentKind): What an adjustment is. Closed where a client sends it (`NewAdjustment`); a response
                reports it as
                `ReportedAdjustmentKind`, which is open.
            amount_minor (int): Signed: positive for a tip, negative for a refund, either sign for a fare correction; never
                0 and
                at most 10^13 either way.
            reason (str): Why, 1 to 512 UTF-8 bytes without NUL; returned as it is in the trip's `adjustments`.
    """

    kind: AdjustmentKind
    amount_minor: int
    reason: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        amount_minor = self.amount_minor

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "amount_minor": amount_minor,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        kind = AdjustmentKind(d.pop("kind"))

        amount_minor = d.pop("amount_minor")

        reason = d.pop("reason")

        new_adjustment = cls(
            kind=kind,
            amount_minor=amount_minor,
            reason=reason,
        )

        new_adjustment.additional_properties = d
        return new_adjustment

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
