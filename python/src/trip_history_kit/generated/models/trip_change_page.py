from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.trip_change import TripChange
    from ..models.trip_change_page_page import TripChangePagePage


T = TypeVar("T", bound="TripChangePage")


@_attrs_define
class TripChangePage:
    """The changes to one rider's trips (or, for analysts, every rider's) since a token, oldest first, and
    the token to send next.

        Attributes:
            data (list[TripChange]): Oldest change first; empty without `since` or when nothing changed.
            page (TripChangePagePage):
    """

    data: list[TripChange]
    page: TripChangePagePage
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        page = self.page.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
                "page": page,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.trip_change import TripChange
        from ..models.trip_change_page_page import TripChangePagePage

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = TripChange.from_dict(data_item_data)

            data.append(data_item)

        page = TripChangePagePage.from_dict(d.pop("page"))

        trip_change_page = cls(
            data=data,
            page=page,
        )

        trip_change_page.additional_properties = d
        return trip_change_page

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
