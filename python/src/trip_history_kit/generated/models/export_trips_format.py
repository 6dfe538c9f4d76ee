from enum import StrEnum


class ExportTripsFormat(StrEnum):
    CSV = "csv"
    CSV_RAW = "csv_raw"
    NDJSON = "ndjson"

    def __str__(self) -> str:
        return str(self.value)
