from enum import StrEnum


class TripStatsBy(StrEnum):
    CITY = "city"
    PRODUCT = "product"

    def __str__(self) -> str:
        return str(self.value)
