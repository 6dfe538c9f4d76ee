from enum import StrEnum


class TripPageFilterStatusType3Type1(StrEnum):
    CANCELED = "canceled"
    COMPLETED = "completed"

    def __str__(self) -> str:
        return str(self.value)
