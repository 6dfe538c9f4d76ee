from enum import StrEnum


class AdjustmentKind(StrEnum):
    FARE_CORRECTION = "fare_correction"
    REFUND = "refund"
    TIP = "tip"

    def __str__(self) -> str:
        return str(self.value)
