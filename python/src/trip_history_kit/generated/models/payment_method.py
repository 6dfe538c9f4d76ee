from enum import StrEnum


class PaymentMethod(StrEnum):
    CARD = "card"
    CASH = "cash"
    WALLET = "wallet"

    def __str__(self) -> str:
        return str(self.value)
