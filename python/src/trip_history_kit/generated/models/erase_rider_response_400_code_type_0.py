from enum import StrEnum


class EraseRiderResponse400CodeType0(StrEnum):
    INVALID_PARAMETER = "invalid_parameter"

    def __str__(self) -> str:
        return str(self.value)
