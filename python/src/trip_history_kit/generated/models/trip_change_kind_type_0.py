from enum import StrEnum


class TripChangeKindType0(StrEnum):
    ERASED = "erased"
    UPSERT = "upsert"

    def __str__(self) -> str:
        return str(self.value)
