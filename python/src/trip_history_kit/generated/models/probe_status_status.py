from enum import StrEnum


class ProbeStatusStatus(StrEnum):
    OK = "ok"
    READY = "ready"

    def __str__(self) -> str:
        return str(self.value)
