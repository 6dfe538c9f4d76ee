from enum import StrEnum


class AnalystTripPagePageTotalAccuracyType0(StrEnum):
    EXACT = "exact"
    PLANNED = "planned"

    def __str__(self) -> str:
        return str(self.value)
