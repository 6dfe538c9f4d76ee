from enum import StrEnum


class ExportTripsResponse403CodeType0(StrEnum):
    FORBIDDEN = "forbidden"

    def __str__(self) -> str:
        return str(self.value)
