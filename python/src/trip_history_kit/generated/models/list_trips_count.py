from enum import StrEnum


class ListTripsCount(StrEnum):
    EXACT = "exact"
    PLANNED = "planned"

    def __str__(self) -> str:
        return str(self.value)
