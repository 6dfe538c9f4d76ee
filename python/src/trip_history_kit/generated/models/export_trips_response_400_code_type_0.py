from enum import StrEnum


class ExportTripsResponse400CodeType0(StrEnum):
    CURSOR_MISMATCH = "cursor_mismatch"
    INVALID_CURSOR = "invalid_cursor"
    INVALID_PARAMETER = "invalid_parameter"

    def __str__(self) -> str:
        return str(self.value)
