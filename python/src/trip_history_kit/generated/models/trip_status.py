from enum import StrEnum


class TripStatus(StrEnum):
    CANCELED = "canceled"
    COMPLETED = "completed"

    def __str__(self) -> str:
        return str(self.value)
