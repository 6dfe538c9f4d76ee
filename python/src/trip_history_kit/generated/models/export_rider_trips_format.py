from enum import StrEnum


class ExportRiderTripsFormat(StrEnum):
    CSV = "csv"
    CSV_RAW = "csv_raw"
    NDJSON = "ndjson"

    def __str__(self) -> str:
        return str(self.value)
