/// One line of a fare's breakdown, as a receipt lists it.
public struct FareLine: Hashable, Sendable {
    public let kind: FareLineKind
    /// In the fare's currency's minor unit; negative only for a promotion.
    public let amountMinor: Int64

    public init(kind: FareLineKind, amountMinor: Int64) {
        self.kind = kind
        self.amountMinor = amountMinor
    }
}

/// What a fare line charges for.
public enum FareLineKind: String, Hashable, Sendable, CaseIterable {
    case base
    case distance
    case time
    case surge
    case bookingFee = "booking_fee"
    case tolls
    case taxes
    /// A discount: the only kind whose amount is negative (or zero).
    case promotion
}
