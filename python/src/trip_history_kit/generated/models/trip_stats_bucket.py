from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.trip_stats_bucket_total_fare_minor import (
        TripStatsBucketTotalFareMinor,
    )
    from ..models.trip_stats_bucket_total_refunds_minor import (
        TripStatsBucketTotalRefundsMinor,
    )
    from ..models.trip_stats_bucket_total_tips_minor import (
        TripStatsBucketTotalTipsMinor,
    )


T = TypeVar("T", bound="TripStatsBucket")


@_attrs_define
class TripStatsBucket:
    """The matching trips requested in one period.

    Attributes:
        bucket_start (datetime.datetime): An RFC 3339 instant in UTC (`Z`) with 6 fraction digits. Versions before
            1.11.0 sent 0, 3 or 6
            digits, which the pattern still admits.
        trips (int):
        completed (int):
        canceled (int):
        total_fare_minor (TripStatsBucketTotalFareMinor): Sum of the fares (cancellation fees included) per ISO 4217
            currency code, in each currency's
            minor unit; currencies are never converted or mixed. Members are in code order.
        total_distance_m (int): Sum of `distance_m` over all the trips.
        mean_duration_s (float | None): Mean `duration_s` of the completed trips, rounded to 0.1 s; null when none
            completed.
        city (str | Unset): The city of the bucket's trips, exactly as recorded; present only with `by=city`. Added in
            1.12.0.
        product (str | Unset): The product of the bucket's trips, exactly as recorded; present only with `by=product`.
            Added in
            1.12.0.
        total_tips_minor (TripStatsBucketTotalTipsMinor | Unset): Sum of the tips added after the rides, per currency as
            `total_fare_minor` (a currency whose
            trips got no tip shows 0). Added in 1.7.0, so a client built from an older spec never sees it.
        total_refunds_minor (TripStatsBucketTotalRefundsMinor | Unset): Sum of the refunds, per currency as
            `total_fare_minor`; refunds are negative, so the sum is 0 or
            less. Added in 1.7.0.
    """

    bucket_start: datetime.datetime
    trips: int
    completed: int
    canceled: int
    total_fare_minor: TripStatsBucketTotalFareMinor
    total_distance_m: int
    mean_duration_s: float | None
    city: str | Unset = UNSET
    product: str | Unset = UNSET
    total_tips_minor: TripStatsBucketTotalTipsMinor | Unset = UNSET
    total_refunds_minor: TripStatsBucketTotalRefundsMinor | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bucket_start = self.bucket_start.isoformat()

        trips = self.trips

        completed = self.completed

        canceled = self.canceled

        total_fare_minor = self.total_fare_minor.to_dict()

        total_distance_m = self.total_distance_m

        mean_duration_s: float | None
        mean_duration_s = self.mean_duration_s

        city = self.city

        product = self.product

        total_tips_minor: dict[str, Any] | Unset = UNSET
        if not isinstance(self.total_tips_minor, Unset):
            total_tips_minor = self.total_tips_minor.to_dict()

        total_refunds_minor: dict[str, Any] | Unset = UNSET
        if not isinstance(self.total_refunds_minor, Unset):
            total_refunds_minor = self.total_refunds_minor.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bucket_start": bucket_start,
                "trips": trips,
                "completed": completed,
                "canceled": canceled,
                "total_fare_minor": total_fare_minor,
                "total_distance_m": total_distance_m,
                "mean_duration_s": mean_duration_s,
            }
        )
        if city is not UNSET:
            field_dict["city"] = city
        if product is not UNSET:
            field_dict["product"] = product
        if total_tips_minor is not UNSET:
            field_dict["total_tips_minor"] = total_tips_minor
        if total_refunds_minor is not UNSET:
            field_dict["total_refunds_minor"] = total_refunds_minor

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.trip_stats_bucket_total_fare_minor import (
            TripStatsBucketTotalFareMinor,
        )
        from ..models.trip_stats_bucket_total_refunds_minor import (
            TripStatsBucketTotalRefundsMinor,
        )
        from ..models.trip_stats_bucket_total_tips_minor import (
            TripStatsBucketTotalTipsMinor,
        )

        d = dict(src_dict)
        bucket_start = datetime.datetime.fromisoformat(d.pop("bucket_start"))

        trips = d.pop("trips")

        completed = d.pop("completed")

        canceled = d.pop("canceled")

        total_fare_minor = TripStatsBucketTotalFareMinor.from_dict(
            d.pop("total_fare_minor")
        )

        total_distance_m = d.pop("total_distance_m")

        def _parse_mean_duration_s(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        mean_duration_s = _parse_mean_duration_s(d.pop("mean_duration_s"))

        city = d.pop("city", UNSET)

        product = d.pop("product", UNSET)

        _total_tips_minor = d.pop("total_tips_minor", UNSET)
        total_tips_minor: TripStatsBucketTotalTipsMinor | Unset
        if isinstance(_total_tips_minor, Unset):
            total_tips_minor = UNSET
        else:
            total_tips_minor = TripStatsBucketTotalTipsMinor.from_dict(
                _total_tips_minor
            )

        _total_refunds_minor = d.pop("total_refunds_minor", UNSET)
        total_refunds_minor: TripStatsBucketTotalRefundsMinor | Unset
        if isinstance(_total_refunds_minor, Unset):
            total_refunds_minor = UNSET
        else:
            total_refunds_minor = TripStatsBucketTotalRefundsMinor.from_dict(
                _total_refunds_minor
            )

        trip_stats_bucket = cls(
            bucket_start=bucket_start,
            trips=trips,
            completed=completed,
            canceled=canceled,
            total_fare_minor=total_fare_minor,
            total_distance_m=total_distance_m,
            mean_duration_s=mean_duration_s,
            city=city,
            product=product,
            total_tips_minor=total_tips_minor,
            total_refunds_minor=total_refunds_minor,
        )

        trip_stats_bucket.additional_properties = d
        return trip_stats_bucket

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
