from enum import StrEnum


class RecordAdjustmentResponse409CodeType0(StrEnum):
    CONFLICT = "conflict"

    def __str__(self) -> str:
        return str(self.value)
