from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.trip_status import TripStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.adjustment import Adjustment
    from ..models.driver import Driver
    from ..models.fare import Fare
    from ..models.payment import Payment
    from ..models.place import Place
    from ..models.route import Route
    from ..models.trip_display import TripDisplay


T = TypeVar("T", bound="Trip")


@_attrs_define
class Trip:
    """A recorded trip. Every response carries the members `required` lists. A trip's detail form (one trip,
    and the `201` of `POST /v1/trips` and of an adjustment) also carries `fare.breakdown`, `payment`,
    `driver` and `route` when they were recorded, and always `adjustments`; list rows, export lines and
    the changes feed never carry them, so pages stay small.

        Attributes:
            id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
            rider_id (str): A positive 64-bit integer (1 to 9223372036854775807) written in decimal.
            status (str | TripStatus): How the trip ended, as a response reports it: one of `TripStatus` today. An open
                enum: a later version
                may report trips that ended another way (`refunded`, say), so a client must accept a value it does not
                know, e.g. showing `display.status`, which is always a finished string.
            product (str):
            city (str):
            time_zone (str): The IANA zone the trip took place in.
            requested_at (datetime.datetime): An RFC 3339 instant in UTC (`Z`) with 6 fraction digits. Versions before
                1.11.0 sent 0, 3 or 6
                digits, which the pattern still admits.
            started_at (datetime.datetime): An RFC 3339 instant in UTC (`Z`) with 6 fraction digits. Versions before 1.11.0
                sent 0, 3 or 6
                digits, which the pattern still admits.
            completed_at (datetime.datetime | None): When the ride ended; null exactly when the trip was canceled.
            pickup (Place): A pickup or drop-off point.
            dropoff (Place): A pickup or drop-off point.
            distance_m (int): Driven distance in meters.
            duration_s (int): Ride length in seconds.
            fare (Fare): The fare in the currency's minor unit (cents for USD, yen for JPY): what was charged when the trip
                was
                recorded, and what the rider paid in the end once the trip's adjustments are added. `breakdown` is in
                a trip's detail form only, and only when it was recorded.
            display (TripDisplay): Finished strings in the `Content-Language` locale, shown as they are.
            version (int): 1 when the trip was recorded, one more per adjustment.
            recorded_at (datetime.datetime): An RFC 3339 instant in UTC (`Z`) with 6 fraction digits. Versions before 1.11.0
                sent 0, 3 or 6
                digits, which the pattern still admits.
            updated_at (datetime.datetime): An RFC 3339 instant in UTC (`Z`) with 6 fraction digits. Versions before 1.11.0
                sent 0, 3 or 6
                digits, which the pattern still admits.
            payment (Payment | Unset): Detail form only, when recorded: how the trip was paid. Never a full card number.
            driver (Driver | Unset): Detail form only, when recorded: the driver as the rider may see them.
            route (Route | Unset): Detail form only, when recorded: the path driven.
            adjustments (list[Adjustment] | Unset): Detail form only, and always there: the trip's adjustments, oldest
                first; empty when none.
    """

    id: str
    rider_id: str
    status: str | TripStatus
    product: str
    city: str
    time_zone: str
    requested_at: datetime.datetime
    started_at: datetime.datetime
    completed_at: datetime.datetime | None
    pickup: Place
    dropoff: Place
    distance_m: int
    duration_s: int
    fare: Fare
    display: TripDisplay
    version: int
    recorded_at: datetime.datetime
    updated_at: datetime.datetime
    payment: Payment | Unset = UNSET
    driver: Driver | Unset = UNSET
    route: Route | Unset = UNSET
    adjustments: list[Adjustment] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        rider_id = self.rider_id

        status: str
        if isinstance(self.status, TripStatus):
            status = self.status.value
        else:
            status = self.status

        product = self.product

        city = self.city

        time_zone = self.time_zone

        requested_at = self.requested_at.isoformat()

        started_at = self.started_at.isoformat()

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        pickup = self.pickup.to_dict()

        dropoff = self.dropoff.to_dict()

        distance_m = self.distance_m

        duration_s = self.duration_s

        fare = self.fare.to_dict()

        display = self.display.to_dict()

        version = self.version

        recorded_at = self.recorded_at.isoformat()

        updated_at = self.updated_at.isoformat()

        payment: dict[str, Any] | Unset = UNSET
        if not isinstance(self.payment, Unset):
            payment = self.payment.to_dict()

        driver: dict[str, Any] | Unset = UNSET
        if not isinstance(self.driver, Unset):
            driver = self.driver.to_dict()

        route: dict[str, Any] | Unset = UNSET
        if not isinstance(self.route, Unset):
            route = self.route.to_dict()

        adjustments: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.adjustments, Unset):
            adjustments = []
            for adjustments_item_data in self.adjustments:
                adjustments_item = adjustments_item_data.to_dict()
                adjustments.append(adjustments_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "rider_id": rider_id,
                "status": status,
                "product": product,
                "city": city,
                "time_zone": time_zone,
                "requested_at": requested_at,
                "started_at": started_at,
                "completed_at": completed_at,
                "pickup": pickup,
                "dropoff": dropoff,
                "distance_m": distance_m,
                "duration_s": duration_s,
                "fare": fare,
                "display": display,
                "version": version,
                "recorded_at": recorded_at,
                "updated_at": updated_at,
            }
        )
        if payment is not UNSET:
            field_dict["payment"] = payment
        if driver is not UNSET:
            field_dict["driver"] = driver
        if route is not UNSET:
            field_dict["route"] = route
        if adjustments is not UNSET:
            field_dict["adjustments"] = adjustments

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.adjustment import Adjustment
        from ..models.driver import Driver
        from ..models.fare import Fare
        from ..models.payment import Payment
        from ..models.place import Place
        from ..models.route import Route
        from ..models.trip_display import TripDisplay

        d = dict(src_dict)
        id = d.pop("id")

        rider_id = d.pop("rider_id")

        def _parse_status(data: object) -> str | TripStatus:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_reported_trip_status_type_0 = TripStatus(data)

                return componentsschemas_reported_trip_status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | TripStatus, data)

        status = _parse_status(d.pop("status"))

        product = d.pop("product")

        city = d.pop("city")

        time_zone = d.pop("time_zone")

        requested_at = datetime.datetime.fromisoformat(d.pop("requested_at"))

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))

        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completed_at"))

        pickup = Place.from_dict(d.pop("pickup"))

        dropoff = Place.from_dict(d.pop("dropoff"))

        distance_m = d.pop("distance_m")

        duration_s = d.pop("duration_s")

        fare = Fare.from_dict(d.pop("fare"))

        display = TripDisplay.from_dict(d.pop("display"))

        version = d.pop("version")

        recorded_at = datetime.datetime.fromisoformat(d.pop("recorded_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        _payment = d.pop("payment", UNSET)
        payment: Payment | Unset
        if isinstance(_payment, Unset):
            payment = UNSET
        else:
            payment = Payment.from_dict(_payment)

        _driver = d.pop("driver", UNSET)
        driver: Driver | Unset
        if isinstance(_driver, Unset):
            driver = UNSET
        else:
            driver = Driver.from_dict(_driver)

        _route = d.pop("route", UNSET)
        route: Route | Unset
        if isinstance(_route, Unset):
            route = UNSET
        else:
            route = Route.from_dict(_route)

        _adjustments = d.pop("adjustments", UNSET)
        adjustments: list[Adjustment] | Unset = UNSET
        if _adjustments is not UNSET:
            adjustments = []
            for adjustments_item_data in _adjustments:
                adjustments_item = Adjustment.from_dict(adjustments_item_data)

                adjustments.append(adjustments_item)

        trip = cls(
            id=id,
            rider_id=rider_id,
            status=status,
            product=product,
            city=city,
            time_zone=time_zone,
            requested_at=requested_at,
            started_at=started_at,
            completed_at=completed_at,
            pickup=pickup,
            dropoff=dropoff,
            distance_m=distance_m,
            duration_s=duration_s,
            fare=fare,
            display=display,
            version=version,
            recorded_at=recorded_at,
            updated_at=updated_at,
            payment=payment,
            driver=driver,
            route=route,
            adjustments=adjustments,
        )

        trip.additional_properties = d
        return trip

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
