from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.trip_change_kind_type_0 import TripChangeKindType0
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.trip import Trip


T = TypeVar("T", bound="TripChange")


@_attrs_define
class TripChange:
    """One change of the feed. Open like every response object.

    Attributes:
        change (str | TripChangeKindType0): What happened to a trip: `upsert` (recorded or adjusted; the entry carries
            the trip) or `erased` (the
            entry carries its `id` only). An open enum: a later version may add kinds, and a client skips an
            entry whose kind it does not know.
        trip (Trip | Unset): A recorded trip. Every response carries the members `required` lists. A trip's detail form
            (one trip,
            and the `201` of `POST /v1/trips` and of an adjustment) also carries `fare.breakdown`, `payment`,
            `driver` and `route` when they were recorded, and always `adjustments`; list rows, export lines and
            the changes feed never carry them, so pages stay small.
        id (str | Unset): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
    """

    change: str | TripChangeKindType0
    trip: Trip | Unset = UNSET
    id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        change: str
        if isinstance(self.change, TripChangeKindType0):
            change = self.change.value
        else:
            change = self.change

        trip: dict[str, Any] | Unset = UNSET
        if not isinstance(self.trip, Unset):
            trip = self.trip.to_dict()

        id = self.id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "change": change,
            }
        )
        if trip is not UNSET:
            field_dict["trip"] = trip
        if id is not UNSET:
            field_dict["id"] = id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.trip import Trip

        d = dict(src_dict)

        def _parse_change(data: object) -> str | TripChangeKindType0:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_trip_change_kind_type_0 = TripChangeKindType0(data)

                return componentsschemas_trip_change_kind_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | TripChangeKindType0, data)

        change = _parse_change(d.pop("change"))

        _trip = d.pop("trip", UNSET)
        trip: Trip | Unset
        if isinstance(_trip, Unset):
            trip = UNSET
        else:
            trip = Trip.from_dict(_trip)

        id = d.pop("id", UNSET)

        trip_change = cls(
            change=change,
            trip=trip,
            id=id,
        )

        trip_change.additional_properties = d
        return trip_change

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
