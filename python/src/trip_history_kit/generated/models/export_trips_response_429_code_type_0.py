from enum import StrEnum


class ExportTripsResponse429CodeType0(StrEnum):
    RATE_LIMITED = "rate_limited"
    TOO_MANY_REQUESTS = "too_many_requests"

    def __str__(self) -> str:
        return str(self.value)
