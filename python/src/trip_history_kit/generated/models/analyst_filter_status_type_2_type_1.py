from enum import StrEnum


class AnalystFilterStatusType2Type1(StrEnum):
    CANCELED = "canceled"
    COMPLETED = "completed"

    def __str__(self) -> str:
        return str(self.value)
