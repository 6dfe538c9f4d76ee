/// An amount in a currency's minor unit (cents for USD, yen for JPY), so no rounding ever happens in storage.
public struct Money: Hashable, Sendable {
    public let amountMinor: Int64
    public let currency: CurrencyCode

    public init(amountMinor: Int64, currency: CurrencyCode) {
        self.amountMinor = amountMinor
        self.currency = currency
    }
}

/// An ISO 4217 alphabetic currency code, checked against the list the platform knows.
public struct CurrencyCode: Hashable, Sendable, CustomStringConvertible {
    public let code: String

    /// Accepts three upper-case letters that name a currency in ISO 4217; nil otherwise.
    public init?(_ code: String) {
        guard code.utf8.count == 3, code.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }),
            ISO4217.codes.contains(code)
        else { return nil }
        self.code = code
    }

    public var description: String { code }
}
