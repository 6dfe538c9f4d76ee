/// How a trip was paid, as much as a receipt may show: never a card number, at most its last four digits.
public struct Payment: Hashable, Sendable {
    public let method: PaymentMethod
    /// The card or wallet brand, e.g. "visa" or "apple_pay".
    public let brand: String?
    /// The last four digits of the card, exactly four ASCII digits.
    public let last4: String?

    public init(method: PaymentMethod, brand: String?, last4: String?) {
        self.method = method
        self.brand = brand
        self.last4 = last4
    }
}

/// The ways a rider can pay.
public enum PaymentMethod: String, Hashable, Sendable, CaseIterable {
    case card
    case cash
    case wallet
}
