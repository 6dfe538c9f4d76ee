from enum import StrEnum


class RecordTripResponse429CodeType0(StrEnum):
    RATE_LIMITED = "rate_limited"

    def __str__(self) -> str:
        return str(self.value)
