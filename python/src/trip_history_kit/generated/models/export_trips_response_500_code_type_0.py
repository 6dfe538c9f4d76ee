from enum import StrEnum


class ExportTripsResponse500CodeType0(StrEnum):
    INTERNAL = "internal"

    def __str__(self) -> str:
        return str(self.value)
