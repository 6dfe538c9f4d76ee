/// How many decimal digits a currency's minor unit has (ISO 4217 "E"), which fixes what `Money.amountMinor`
/// counts: cents for USD (2), yen for JPY (0), fils for BHD (3).
///
/// A table rather than ICU: on Linux `NumberFormatter` reports 2 digits for every currency, and ICU's
/// display digits (CLDR) differ from ISO's for some currencies (IQD: ISO 3, CLDR 0). The stored amount
/// means the ISO unit, so the meaning of stored data must not move with the host's ICU version.
enum CurrencyMinorUnits {
    /// Digits for `code`; 2, the ISO default, for any code not listed.
    static func digits(for code: String) -> Int {
        exceptions[code] ?? 2
    }

    private static let exceptions: [String: Int] = [
        "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0, "RWF": 0,
        "UGX": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
        "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
    ]
}
