from enum import StrEnum


class ExportTripsResponse503CodeType0(StrEnum):
    QUERY_TIMEOUT = "query_timeout"
    UNAVAILABLE = "unavailable"

    def __str__(self) -> str:
        return str(self.value)
