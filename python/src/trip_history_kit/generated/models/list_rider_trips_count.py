from enum import StrEnum


class ListRiderTripsCount(StrEnum):
    EXACT = "exact"
    PLANNED = "planned"

    def __str__(self) -> str:
        return str(self.value)
