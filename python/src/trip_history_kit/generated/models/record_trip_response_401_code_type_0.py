from enum import StrEnum


class RecordTripResponse401CodeType0(StrEnum):
    UNAUTHORIZED = "unauthorized"

    def __str__(self) -> str:
        return str(self.value)
