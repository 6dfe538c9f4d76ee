from enum import StrEnum


class RecordTripResponse422CodeType0(StrEnum):
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    INVALID_PARAMETER = "invalid_parameter"
    RIDER_ERASED = "rider_erased"

    def __str__(self) -> str:
        return str(self.value)
