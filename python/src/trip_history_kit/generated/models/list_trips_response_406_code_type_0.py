from enum import StrEnum


class ListTripsResponse406CodeType0(StrEnum):
    NOT_ACCEPTABLE = "not_acceptable"

    def __str__(self) -> str:
        return str(self.value)
