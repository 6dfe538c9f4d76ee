from enum import StrEnum


class ExportTripsResponse431CodeType0(StrEnum):
    HEADERS_TOO_LARGE = "headers_too_large"

    def __str__(self) -> str:
        return str(self.value)
