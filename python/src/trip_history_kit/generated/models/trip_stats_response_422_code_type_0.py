from enum import StrEnum


class TripStatsResponse422CodeType0(StrEnum):
    QUERY_TIMEOUT = "query_timeout"

    def __str__(self) -> str:
        return str(self.value)
