from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.problem_code import ProblemCode
from ..types import UNSET, Unset

T = TypeVar("T", bound="ListRiderTripChangesResponse401")


@_attrs_define
class ListRiderTripChangesResponse401:
    """
    Attributes:
        type_ (str): `urn:trip-history:problem:` followed by `code`; stable, clients may switch on it. It resolves to
            the code's entry on the service's reference page, `/docs#problem-{code}`, which the response's `Link:
            </docs#problem-{code}>; rel="describedby"` field names.
        title (str): A short summary of the kind of problem.
        status (int): The HTTP status of the response; each error response narrows it to its own.
        detail (str): What went wrong with this request, written by the service; never echoes input.
        code (ProblemCode | str): What went wrong, one of `ProblemCode` today. An open enum: new codes may be added in a
            minor version.
        retryable (bool): Whether repeating the same request later may succeed.
        request_id (str): Equal to the `X-Request-ID` response header.
        param (str | Unset): The query parameter, header or body member at fault, by the name the client used, which is
            always one this document defines. A fault in a query parameter the API does not define (a value that is not
            valid percent-encoded UTF-8) or in a parameter name itself is reported as `query`, without the name that was
            sent.
    """

    type_: str
    title: str
    status: int
    detail: str
    code: ProblemCode | str
    retryable: bool
    request_id: str
    param: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        title = self.title

        status = self.status

        detail = self.detail

        code: str
        if isinstance(self.code, ProblemCode):
            code = self.code.value
        else:
            code = self.code

        retryable = self.retryable

        request_id = self.request_id

        param = self.param

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "title": title,
                "status": status,
                "detail": detail,
                "code": code,
                "retryable": retryable,
                "request_id": request_id,
            }
        )
        if param is not UNSET:
            field_dict["param"] = param

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = d.pop("type")

        title = d.pop("title")

        status = d.pop("status")

        detail = d.pop("detail")

        def _parse_code(data: object) -> ProblemCode | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                code_type_0 = ProblemCode(data)

                return code_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ProblemCode | str, data)

        code = _parse_code(d.pop("code"))

        retryable = d.pop("retryable")

        request_id = d.pop("request_id")

        param = d.pop("param", UNSET)

        list_rider_trip_changes_response_401 = cls(
            type_=type_,
            title=title,
            status=status,
            detail=detail,
            code=code,
            retryable=retryable,
            request_id=request_id,
            param=param,
        )

        list_rider_trip_changes_response_401.additional_properties = d
        return list_rider_trip_changes_response_401

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
