from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.probe_status_reader import ProbeStatusReader
from ..models.probe_status_status import ProbeStatusStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="ProbeStatus")


@_attrs_define
class ProbeStatus:
    """
    Attributes:
        status (ProbeStatusStatus):
        reader (ProbeStatusReader | Unset): Only with a read replica configured (DATABASE_READ_URL): whether it answers.
            It does not decide readiness; while it is down, reads go to the writer.
    """

    status: ProbeStatusStatus
    reader: ProbeStatusReader | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        reader: str | Unset = UNSET
        if not isinstance(self.reader, Unset):
            reader = self.reader.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
            }
        )
        if reader is not UNSET:
            field_dict["reader"] = reader

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status = ProbeStatusStatus(d.pop("status"))

        _reader = d.pop("reader", UNSET)
        reader: ProbeStatusReader | Unset
        if isinstance(_reader, Unset):
            reader = UNSET
        else:
            reader = ProbeStatusReader(_reader)

        probe_status = cls(
            status=status,
            reader=reader,
        )

        probe_status.additional_properties = d
        return probe_status

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
