from enum import StrEnum


class RecordAdjustmentResponse412CodeType0(StrEnum):
    PRECONDITION_FAILED = "precondition_failed"

    def __str__(self) -> str:
        return str(self.value)
