/// A rider's identifier: a positive 64-bit integer, shown to clients as a decimal string.
public struct RiderID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int64

    /// Accepts only positive values; ids are never zero or negative.
    public init?(_ rawValue: Int64) {
        guard rawValue > 0 else { return nil }
        self.rawValue = rawValue
    }

    /// Parses the decimal form clients send in paths and tokens.
    public init?(_ text: some StringProtocol) {
        guard let value = Int64(text) else { return nil }
        self.init(value)
    }

    public var description: String { String(rawValue) }
    public static func < (lhs: RiderID, rhs: RiderID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A trip's identifier, assigned by the store in insertion order.
public struct TripID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int64

    /// Accepts only positive values, as the store never assigns others.
    public init?(_ rawValue: Int64) {
        guard rawValue > 0 else { return nil }
        self.rawValue = rawValue
    }

    /// Parses the decimal form clients send in paths.
    public init?(_ text: some StringProtocol) {
        guard let value = Int64(text) else { return nil }
        self.init(value)
    }

    public var description: String { String(rawValue) }
    public static func < (lhs: TripID, rhs: TripID) -> Bool { lhs.rawValue < rhs.rawValue }
}
