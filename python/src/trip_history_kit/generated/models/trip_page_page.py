from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.trip_page_page_total_accuracy_type_0 import TripPagePageTotalAccuracyType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="TripPagePage")


@_attrs_define
class TripPagePage:
    """
    Attributes:
        limit (int):
        has_more (bool): Whether older trips remain; true exactly when `next_cursor` is not null.
        next_cursor (None | str): Starts the page of older trips; null when nothing older matches.
        prev_cursor (None | str): Starts the page of newer trips; null on the first page.
        total (int | Unset): How many trips the filter matches, when `count` was sent; absent otherwise.
        total_accuracy (str | TripPagePageTotalAccuracyType0 | Unset): How `total` was obtained, when `count` was sent:
            `exact` (every matching trip counted) or
            `planned` (the planner's estimate). An open enum: a later version may add values.
    """

    limit: int
    has_more: bool
    next_cursor: None | str
    prev_cursor: None | str
    total: int | Unset = UNSET
    total_accuracy: str | TripPagePageTotalAccuracyType0 | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        limit = self.limit

        has_more = self.has_more

        next_cursor: None | str
        next_cursor = self.next_cursor

        prev_cursor: None | str
        prev_cursor = self.prev_cursor

        total = self.total

        total_accuracy: str | Unset
        if isinstance(self.total_accuracy, Unset):
            total_accuracy = UNSET
        elif isinstance(self.total_accuracy, TripPagePageTotalAccuracyType0):
            total_accuracy = self.total_accuracy.value
        else:
            total_accuracy = self.total_accuracy

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "limit": limit,
                "has_more": has_more,
                "next_cursor": next_cursor,
                "prev_cursor": prev_cursor,
            }
        )
        if total is not UNSET:
            field_dict["total"] = total
        if total_accuracy is not UNSET:
            field_dict["total_accuracy"] = total_accuracy

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        limit = d.pop("limit")

        has_more = d.pop("has_more")

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        def _parse_prev_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        prev_cursor = _parse_prev_cursor(d.pop("prev_cursor"))

        total = d.pop("total", UNSET)

        def _parse_total_accuracy(
            data: object,
        ) -> str | TripPagePageTotalAccuracyType0 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                total_accuracy_type_0 = TripPagePageTotalAccuracyType0(data)

                return total_accuracy_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | TripPagePageTotalAccuracyType0 | Unset, data)

        total_accuracy = _parse_total_accuracy(d.pop("total_accuracy", UNSET))

        trip_page_page = cls(
            limit=limit,
            has_more=has_more,
            next_cursor=next_cursor,
            prev_cursor=prev_cursor,
            total=total,
            total_accuracy=total_accuracy,
        )

        trip_page_page.additional_properties = d
        return trip_page_page

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
