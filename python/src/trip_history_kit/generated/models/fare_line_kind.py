from enum import StrEnum


class FareLineKind(StrEnum):
    BASE = "base"
    BOOKING_FEE = "booking_fee"
    DISTANCE = "distance"
    PROMOTION = "promotion"
    SURGE = "surge"
    TAXES = "taxes"
    TIME = "time"
    TOLLS = "tolls"

    def __str__(self) -> str:
        return str(self.value)
