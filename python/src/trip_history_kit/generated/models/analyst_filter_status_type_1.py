from enum import StrEnum


class AnalystFilterStatusType1(StrEnum):
    CANCELED = "canceled"
    COMPLETED = "completed"

    def __str__(self) -> str:
        return str(self.value)
