from enum import StrEnum


class RecordTripResponse413CodeType0(StrEnum):
    PAYLOAD_TOO_LARGE = "payload_too_large"

    def __str__(self) -> str:
        return str(self.value)
