from enum import StrEnum


class ExportTripsResponse414CodeType0(StrEnum):
    URI_TOO_LONG = "uri_too_long"

    def __str__(self) -> str:
        return str(self.value)
