from enum import StrEnum


class ExportTripsResponse401CodeType0(StrEnum):
    UNAUTHORIZED = "unauthorized"

    def __str__(self) -> str:
        return str(self.value)
