from enum import StrEnum


class ExportRiderTripsFormat(StrEnum):
    CSV = "csv"
    NDJSON = "ndjson"

    def __str__(self) -> str:
        return str(self.value)
