from enum import StrEnum


class EraseRiderResponse500CodeType0(StrEnum):
    INTERNAL = "internal"

    def __str__(self) -> str:
        return str(self.value)
