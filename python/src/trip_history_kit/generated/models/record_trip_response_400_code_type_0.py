from enum import StrEnum


class RecordTripResponse400CodeType0(StrEnum):
    INVALID_PARAMETER = "invalid_parameter"

    def __str__(self) -> str:
        return str(self.value)
