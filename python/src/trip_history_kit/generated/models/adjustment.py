from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.adjustment_kind import AdjustmentKind

T = TypeVar("T", bound="Adjustment")


@_attrs_define
class Adjustment:
    """A change to the trip's money after the ride, stored once and never edited or removed.

    Attributes:
        id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
        kind (AdjustmentKind | str): An adjustment's kind as a response reports it: one of `AdjustmentKind` today. An
            open enum: a later
            version may add kinds, so a client shows one it does not know by its amount and `reason`.
        amount_minor (int): Signed, in the fare's currency and minor unit: positive for a tip, negative for a refund,
            either
            for a fare correction; never 0.
        reason (str): Why, as the recording service wrote it (1 to 512 UTF-8 bytes).
        created_at (datetime.datetime): An RFC 3339 instant in UTC (`Z`) with 6 fraction digits. Versions before 1.11.0
            sent 0, 3 or 6
            digits, which the pattern still admits.
    """

    id: str
    kind: AdjustmentKind | str
    amount_minor: int
    reason: str
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        kind: str
        if isinstance(self.kind, AdjustmentKind):
            kind = self.kind.value
        else:
            kind = self.kind

        amount_minor = self.amount_minor

        reason = self.reason

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "kind": kind,
                "amount_minor": amount_minor,
                "reason": reason,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        def _parse_kind(data: object) -> AdjustmentKind | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_reported_adjustment_kind_type_0 = AdjustmentKind(data)

                return componentsschemas_reported_adjustment_kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AdjustmentKind | str, data)

        kind = _parse_kind(d.pop("kind"))

        amount_minor = d.pop("amount_minor")

        reason = d.pop("reason")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        adjustment = cls(
            id=id,
            kind=kind,
            amount_minor=amount_minor,
            reason=reason,
            created_at=created_at,
        )

        adjustment.additional_properties = d
        return adjustment

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
