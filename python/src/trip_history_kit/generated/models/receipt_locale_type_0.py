from enum import StrEnum


class ReceiptLocaleType0(StrEnum):
    DE_DE = "de-DE"
    EN_GB = "en-GB"
    EN_US = "en-US"
    ES_ES = "es-ES"
    FR_FR = "fr-FR"
    JA_JP = "ja-JP"

    def __str__(self) -> str:
        return str(self.value)
