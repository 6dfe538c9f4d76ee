from enum import StrEnum


class ExportTripsResponse422CodeType0(StrEnum):
    QUERY_TIMEOUT = "query_timeout"

    def __str__(self) -> str:
        return str(self.value)
