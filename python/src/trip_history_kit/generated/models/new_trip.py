from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.trip_status import TripStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.new_driver import NewDriver
    from ..models.new_payment import NewPayment
    from ..models.new_place import NewPlace
    from ..models.new_route import NewRoute
    from ..models.new_trip_fare import NewTripFare


T = TypeVar("T", bound="NewTrip")


@_attrs_define
class NewTrip:
    """A finished trip to record. Unknown members are ignored. Besides the constraints below:
    `started_at` must not be before `requested_at`, `completed_at` not before `started_at`; `time_zone`
    must be an IANA zone; free text is 1 to 512 UTF-8 bytes (not characters) without NUL, or the shorter
    bound a member states; `fare.currency` must be an active ISO 4217 code. The receipt members
    (`fare.breakdown`, `payment`, `driver`, `route`) are optional. No string anywhere in the body may hold
    a payment card number (13 to 19 digits, contiguous or grouped as cards print them (a first group of four, none under
    three, single spaces or dashes between), passing the
    Luhn check): `422` naming the string's JSON path, and the number is neither stored nor logged.

        Attributes:
            rider_id (int | str): The rider, as a decimal string; a bare positive integer is accepted too.
            status (TripStatus): How the trip ended; only finished trips are recorded. Closed where a client sends it (a
                body, the
                `status` filter); a response reports it as `ReportedTripStatus`, which is open.
            product (str):
            city (str):
            time_zone (str): An IANA time zone name (`format: iana-time-zone`): `UTC` or an `Area/Location` identifier such
                as
                `Europe/Paris`, at most 64 bytes, known to the server's time zone database. Abbreviations and bare
                offsets (`EST`, `GMT+1`) are refused as ambiguous: `400 invalid_parameter` in a query, `422` in a body.
            requested_at (datetime.datetime): An RFC 3339 timestamp with an offset (`Z` or `±HH:MM`), of a day that exists,
                seconds up to 59 (no
                leap second), at most 9 fraction digits, an instant within the years 0000 to 9999 in UTC (else
                `422`); stored to the microsecond.
            started_at (datetime.datetime): An RFC 3339 timestamp with an offset (`Z` or `±HH:MM`), of a day that exists,
                seconds up to 59 (no
                leap second), at most 9 fraction digits, an instant within the years 0000 to 9999 in UTC (else
                `422`); stored to the microsecond.
            pickup (NewPlace):
            dropoff (NewPlace):
            distance_m (int): Driven meters, at most 2,000 km (more than any trip drives); larger values get `422`.
            duration_s (int): Ride length in seconds; at most 48 hours; larger values get `422`.
            fare (NewTripFare):
            completed_at (datetime.datetime | None | Unset): Required (not null) for a completed trip; null or absent for a
                canceled one. When present, an
                `InputTimestamp` (the same rules, written out here so that generators can express a nullable
                string).
            payment (NewPayment | Unset): Optional. How the trip was paid; never a full card number.
            driver (NewDriver | Unset): Optional. The driver as the rider may see them.
            route (NewRoute | Unset): Optional. The path driven, as a Google encoded polyline (precision 5, at most 16384
                bytes, 2 to 5000
                points, each a valid coordinate); anything else gets `422` with `param` `route.polyline`.
    """

    rider_id: int | str
    status: TripStatus
    product: str
    city: str
    time_zone: str
    requested_at: datetime.datetime
    started_at: datetime.datetime
    pickup: NewPlace
    dropoff: NewPlace
    distance_m: int
    duration_s: int
    fare: NewTripFare
    completed_at: datetime.datetime | None | Unset = UNSET
    payment: NewPayment | Unset = UNSET
    driver: NewDriver | Unset = UNSET
    route: NewRoute | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rider_id: int | str
        rider_id = self.rider_id

        status = self.status.value

        product = self.product

        city = self.city

        time_zone = self.time_zone

        requested_at = self.requested_at.isoformat()

        started_at = self.started_at.isoformat()

        pickup = self.pickup.to_dict()

        dropoff = self.dropoff.to_dict()

        distance_m = self.distance_m

        duration_s = self.duration_s

        fare = self.fare.to_dict()

        completed_at: None | str | Unset
        if isinstance(self.completed_at, Unset):
            completed_at = UNSET
        elif isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        payment: dict[str, Any] | Unset = UNSET
        if not isinstance(self.payment, Unset):
            payment = self.payment.to_dict()

        driver: dict[str, Any] | Unset = UNSET
        if not isinstance(self.driver, Unset):
            driver = self.driver.to_dict()

        route: dict[str, Any] | Unset = UNSET
        if not isinstance(self.route, Unset):
            route = self.route.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rider_id": rider_id,
                "status": status,
                "product": product,
                "city": city,
                "time_zone": time_zone,
                "requested_at": requested_at,
                "started_at": started_at,
                "pickup": pickup,
                "dropoff": dropoff,
                "distance_m": distance_m,
                "duration_s": duration_s,
                "fare": fare,
            }
        )
        if completed_at is not UNSET:
            field_dict["completed_at"] = completed_at
        if payment is not UNSET:
            field_dict["payment"] = payment
        if driver is not UNSET:
            field_dict["driver"] = driver
        if route is not UNSET:
            field_dict["route"] = route

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.new_driver import NewDriver
        from ..models.new_payment import NewPayment
        from ..models.new_place import NewPlace
        from ..models.new_route import NewRoute
        from ..models.new_trip_fare import NewTripFare

        d = dict(src_dict)

        def _parse_rider_id(data: object) -> int | str:
            return cast(int | str, data)

        rider_id = _parse_rider_id(d.pop("rider_id"))

        status = TripStatus(d.pop("status"))

        product = d.pop("product")

        city = d.pop("city")

        time_zone = d.pop("time_zone")

        requested_at = datetime.datetime.fromisoformat(d.pop("requested_at"))

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))

        pickup = NewPlace.from_dict(d.pop("pickup"))

        dropoff = NewPlace.from_dict(d.pop("dropoff"))

        distance_m = d.pop("distance_m")

        duration_s = d.pop("duration_s")

        fare = NewTripFare.from_dict(d.pop("fare"))

        def _parse_completed_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        completed_at = _parse_completed_at(d.pop("completed_at", UNSET))

        _payment = d.pop("payment", UNSET)
        payment: NewPayment | Unset
        if isinstance(_payment, Unset):
            payment = UNSET
        else:
            payment = NewPayment.from_dict(_payment)

        _driver = d.pop("driver", UNSET)
        driver: NewDriver | Unset
        if isinstance(_driver, Unset):
            driver = UNSET
        else:
            driver = NewDriver.from_dict(_driver)

        _route = d.pop("route", UNSET)
        route: NewRoute | Unset
        if isinstance(_route, Unset):
            route = UNSET
        else:
            route = NewRoute.from_dict(_route)

        new_trip = cls(
            rider_id=rider_id,
            status=status,
            product=product,
            city=city,
            time_zone=time_zone,
            requested_at=requested_at,
            started_at=started_at,
            pickup=pickup,
            dropoff=dropoff,
            distance_m=distance_m,
            duration_s=duration_s,
            fare=fare,
            completed_at=completed_at,
            payment=payment,
            driver=driver,
            route=route,
        )

        new_trip.additional_properties = d
        return new_trip

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
