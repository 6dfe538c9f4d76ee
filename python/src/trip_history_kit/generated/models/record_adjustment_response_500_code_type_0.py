from enum import StrEnum


class RecordAdjustmentResponse500CodeType0(StrEnum):
    INTERNAL = "internal"

    def __str__(self) -> str:
        return str(self.value)
