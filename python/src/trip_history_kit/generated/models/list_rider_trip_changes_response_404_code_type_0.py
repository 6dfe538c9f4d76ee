from enum import StrEnum


class ListRiderTripChangesResponse404CodeType0(StrEnum):
    NOT_FOUND = "not_found"

    def __str__(self) -> str:
        return str(self.value)
