from enum import StrEnum


class EraseRiderResponse503CodeType0(StrEnum):
    UNAVAILABLE = "unavailable"

    def __str__(self) -> str:
        return str(self.value)
