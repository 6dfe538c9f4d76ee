from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.analyst_filter import AnalystFilter
    from ..models.analyst_trip_page_page import AnalystTripPagePage
    from ..models.trip import Trip


T = TypeVar("T", bound="AnalystTripPage")


@_attrs_define
class AnalystTripPage:
    """One page of every rider's trips in the window, newest first.

    Attributes:
        data (list[Trip]):
        page (AnalystTripPagePage):
        filter_ (AnalystFilter): The analyst filter applied, normalized; null for what was not given.
    """

    data: list[Trip]
    page: AnalystTripPagePage
    filter_: AnalystFilter
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        page = self.page.to_dict()

        filter_ = self.filter_.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
                "page": page,
                "filter": filter_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.analyst_filter import AnalystFilter
        from ..models.analyst_trip_page_page import AnalystTripPagePage
        from ..models.trip import Trip

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = Trip.from_dict(data_item_data)

            data.append(data_item)

        page = AnalystTripPagePage.from_dict(d.pop("page"))

        filter_ = AnalystFilter.from_dict(d.pop("filter"))

        analyst_trip_page = cls(
            data=data,
            page=page,
            filter_=filter_,
        )

        analyst_trip_page.additional_properties = d
        return analyst_trip_page

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
