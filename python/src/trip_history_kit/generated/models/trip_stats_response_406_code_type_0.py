from enum import StrEnum


class TripStatsResponse406CodeType0(StrEnum):
    NOT_ACCEPTABLE = "not_acceptable"

    def __str__(self) -> str:
        return str(self.value)
