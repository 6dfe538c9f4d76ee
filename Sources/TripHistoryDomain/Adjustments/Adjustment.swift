public import Foundation

/// A change to what a trip cost, recorded after the ride. Adjustments are kept as a ledger: appended, never
/// changed or removed.
public struct Adjustment: Hashable, Sendable {
    public let id: AdjustmentID
    public let kind: AdjustmentKind
    /// Signed, in the trip's currency's minor unit: positive for a tip, negative for a refund.
    public let amountMinor: Int64
    public let reason: String
    public let createdAt: Date

    public init(id: AdjustmentID, kind: AdjustmentKind, amountMinor: Int64, reason: String, createdAt: Date) {
        self.id = id
        self.kind = kind
        self.amountMinor = amountMinor
        self.reason = reason
        self.createdAt = createdAt
    }
}

/// An adjustment's identifier, assigned by the store in insertion order.
public struct AdjustmentID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int64

    public init?(_ rawValue: Int64) {
        guard rawValue > 0 else { return nil }
        self.rawValue = rawValue
    }

    public var description: String { String(rawValue) }
    public static func < (lhs: AdjustmentID, rhs: AdjustmentID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What an adjustment does to the fare.
public enum AdjustmentKind: String, Hashable, Sendable, CaseIterable {
    /// The rider adds money for the driver; positive.
    case tip
    /// Support gives money back; negative.
    case refund
    /// The fare was wrong (a disputed route, a missing toll); either sign.
    case fareCorrection = "fare_correction"
}
