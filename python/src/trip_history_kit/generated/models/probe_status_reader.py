from enum import StrEnum


class ProbeStatusReader(StrEnum):
    DOWN = "down"
    READY = "ready"

    def __str__(self) -> str:
        return str(self.value)
