from enum import StrEnum


class RecordTripResponse409CodeType0(StrEnum):
    CONFLICT = "conflict"

    def __str__(self) -> str:
        return str(self.value)
