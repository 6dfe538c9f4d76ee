from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.trip_page_filter_status_type_1 import TripPageFilterStatusType1
from ..models.trip_page_filter_status_type_2_type_1 import (
    TripPageFilterStatusType2Type1,
)
from ..models.trip_page_filter_status_type_3_type_1 import (
    TripPageFilterStatusType3Type1,
)

T = TypeVar("T", bound="TripPageFilter")


@_attrs_define
class TripPageFilter:
    """The filter applied, normalized; null for what was not given.

    Attributes:
        from_ (datetime.datetime | None): The inclusive lower bound, as a UTC instant.
        to (datetime.datetime | None): The exclusive upper bound, as a UTC instant.
        tz (None | str): The display and date-bound zone.
        status (None | TripPageFilterStatusType1 | TripPageFilterStatusType2Type1 | TripPageFilterStatusType3Type1): The
            `status` filter sent, so only a value the client itself sent (closed).
    """

    from_: datetime.datetime | None
    to: datetime.datetime | None
    tz: None | str
    status: (
        None
        | TripPageFilterStatusType1
        | TripPageFilterStatusType2Type1
        | TripPageFilterStatusType3Type1
    )
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from_: None | str
        if isinstance(self.from_, datetime.datetime):
            from_ = self.from_.isoformat()
        else:
            from_ = self.from_

        to: None | str
        if isinstance(self.to, datetime.datetime):
            to = self.to.isoformat()
        else:
            to = self.to

        tz: None | str
        tz = self.tz

        status: None | str
        if (
            isinstance(self.status, TripPageFilterStatusType1)
            or isinstance(self.status, TripPageFilterStatusType2Type1)
            or isinstance(self.status, TripPageFilterStatusType3Type1)
        ):
            status = self.status.value
        else:
            status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "from": from_,
                "to": to,
                "tz": tz,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_from_(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                from_type_0 = datetime.datetime.fromisoformat(data)

                return from_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        from_ = _parse_from_(d.pop("from"))

        def _parse_to(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                to_type_0 = datetime.datetime.fromisoformat(data)

                return to_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        to = _parse_to(d.pop("to"))

        def _parse_tz(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        tz = _parse_tz(d.pop("tz"))

        def _parse_status(
            data: object,
        ) -> (
            None
            | TripPageFilterStatusType1
            | TripPageFilterStatusType2Type1
            | TripPageFilterStatusType3Type1
        ):
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_1 = TripPageFilterStatusType1(data)

                return status_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_2_type_1 = TripPageFilterStatusType2Type1(data)

                return status_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_3_type_1 = TripPageFilterStatusType3Type1(data)

                return status_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                None
                | TripPageFilterStatusType1
                | TripPageFilterStatusType2Type1
                | TripPageFilterStatusType3Type1,
                data,
            )

        status = _parse_status(d.pop("status"))

        trip_page_filter = cls(
            from_=from_,
            to=to,
            tz=tz,
            status=status,
        )

        trip_page_filter.additional_properties = d
        return trip_page_filter

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
