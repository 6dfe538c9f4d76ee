from enum import StrEnum


class ListTripChangesResponse410CodeType0(StrEnum):
    SYNC_TOKEN_EXPIRED = "sync_token_expired"

    def __str__(self) -> str:
        return str(self.value)
