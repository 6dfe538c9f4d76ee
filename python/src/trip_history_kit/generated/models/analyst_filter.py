from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.analyst_filter_status_type_1 import AnalystFilterStatusType1
from ..models.analyst_filter_status_type_2_type_1 import AnalystFilterStatusType2Type1
from ..models.analyst_filter_status_type_3_type_1 import AnalystFilterStatusType3Type1

T = TypeVar("T", bound="AnalystFilter")


@_attrs_define
class AnalystFilter:
    """The analyst filter applied, normalized; null for what was not given.

    Attributes:
        from_ (datetime.datetime): An RFC 3339 instant in UTC (`Z`) with 6 fraction digits. Versions before 1.11.0 sent
            0, 3 or 6
            digits, which the pattern still admits.
        to (datetime.datetime): An RFC 3339 instant in UTC (`Z`) with 6 fraction digits. Versions before 1.11.0 sent 0,
            3 or 6
            digits, which the pattern still admits.
        tz (None | str): The `tz` parameter; null when absent.
        status (AnalystFilterStatusType1 | AnalystFilterStatusType2Type1 | AnalystFilterStatusType3Type1 | None): The
            `status` filter sent, so only a value the client itself sent (closed).
        city (None | str):
        product (None | str):
        rider_id (None | str): The rider filtered on, in decimal; null for all riders.
    """

    from_: datetime.datetime
    to: datetime.datetime
    tz: None | str
    status: (
        AnalystFilterStatusType1
        | AnalystFilterStatusType2Type1
        | AnalystFilterStatusType3Type1
        | None
    )
    city: None | str
    product: None | str
    rider_id: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from_ = self.from_.isoformat()

        to = self.to.isoformat()

        tz: None | str
        tz = self.tz

        status: None | str
        if (
            isinstance(self.status, AnalystFilterStatusType1)
            or isinstance(self.status, AnalystFilterStatusType2Type1)
            or isinstance(self.status, AnalystFilterStatusType3Type1)
        ):
            status = self.status.value
        else:
            status = self.status

        city: None | str
        city = self.city

        product: None | str
        product = self.product

        rider_id: None | str
        rider_id = self.rider_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "from": from_,
                "to": to,
                "tz": tz,
                "status": status,
                "city": city,
                "product": product,
                "rider_id": rider_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        from_ = datetime.datetime.fromisoformat(d.pop("from"))

        to = datetime.datetime.fromisoformat(d.pop("to"))

        def _parse_tz(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        tz = _parse_tz(d.pop("tz"))

        def _parse_status(
            data: object,
        ) -> (
            AnalystFilterStatusType1
            | AnalystFilterStatusType2Type1
            | AnalystFilterStatusType3Type1
            | None
        ):
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_1 = AnalystFilterStatusType1(data)

                return status_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_2_type_1 = AnalystFilterStatusType2Type1(data)

                return status_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_3_type_1 = AnalystFilterStatusType3Type1(data)

                return status_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                AnalystFilterStatusType1
                | AnalystFilterStatusType2Type1
                | AnalystFilterStatusType3Type1
                | None,
                data,
            )

        status = _parse_status(d.pop("status"))

        def _parse_city(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        city = _parse_city(d.pop("city"))

        def _parse_product(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        product = _parse_product(d.pop("product"))

        def _parse_rider_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        rider_id = _parse_rider_id(d.pop("rider_id"))

        analyst_filter = cls(
            from_=from_,
            to=to,
            tz=tz,
            status=status,
            city=city,
            product=product,
            rider_id=rider_id,
        )

        analyst_filter.additional_properties = d
        return analyst_filter

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
