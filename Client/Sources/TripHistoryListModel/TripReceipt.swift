import Foundation
import TripHistoryClient

/// A trip's receipt as its detail screen shows it: the charged fare's line items, what changed it after the
/// ride (tips, refunds, fare corrections) and what the rider paid in the end.
///
/// Amounts are integers in the minor unit of `currency` (cents for EUR, yen for JPY), as the service sends
/// them; `total` is the total already formatted in the response's language (`display.fare`).
public struct TripReceipt: Sendable, Equatable {
    /// One line item of the charged fare.
    public struct Line: Sendable, Equatable {
        /// What the line is for (`base`, `distance`, `promotion`...); a kind a later version of the API adds
        /// is `.unknown`: show it by its amount.
        public var kind: OpenEnumValue<FareLineKind>
        /// The line's amount; negative for a promotion.
        public var amountMinor: Int64

        /// A line.
        public init(kind: OpenEnumValue<FareLineKind>, amountMinor: Int64) {
            self.kind = kind
            self.amountMinor = amountMinor
        }
    }

    /// One change to the fare after the ride, as recorded.
    public struct Adjustment: Sendable, Equatable {
        /// A tip, a refund or a fare correction; `.unknown` for a kind a later version adds.
        public var kind: OpenEnumValue<AdjustmentKind>
        /// Positive adds to what the rider paid, negative takes from it.
        public var amountMinor: Int64
        /// Why, as the recording service wrote it.
        public var reason: String
        /// When it was recorded.
        public var createdAt: Date

        /// An adjustment.
        public init(kind: OpenEnumValue<AdjustmentKind>, amountMinor: Int64, reason: String, createdAt: Date) {
            self.kind = kind
            self.amountMinor = amountMinor
            self.reason = reason
            self.createdAt = createdAt
        }
    }

    /// The ISO 4217 code of every amount.
    public var currency: String
    /// The charged fare's line items in order, summing to `chargedMinor`; empty when the trip was recorded
    /// without a breakdown.
    public var lines: [Line]
    /// What was charged when the trip was recorded.
    public var chargedMinor: Int64
    /// The trip's tips together, 0 or more.
    public var tipsMinor: Int64
    /// The trip's refunds together, 0 or less.
    public var refundsMinor: Int64
    /// The trip's fare corrections together, either sign: what the total holds beyond the charged fare, tips
    /// and refunds.
    public var correctionsMinor: Int64
    /// What the rider paid in the end: the charged fare plus every adjustment.
    public var totalMinor: Int64
    /// `totalMinor` formatted in the response's language, e.g. `€20.50`.
    public var total: String
    /// Every adjustment, oldest first; empty when none (or for a trip from a list page, which leaves them out).
    public var adjustments: [Adjustment]

    /// The receipt of `trip`, in detail form for the line items and adjustments (a list row carries the
    /// totals only).
    public init(trip: Trip) {
        let fare = trip.fare
        currency = fare.currency
        lines = (fare.breakdown ?? []).map { Line(kind: $0.lineKind, amountMinor: $0.amountMinor) }
        chargedMinor = fare.amountMinor
        tipsMinor = fare.tipsMinor
        refundsMinor = fare.refundsMinor
        correctionsMinor = fare.totalMinor - fare.amountMinor - fare.tipsMinor - fare.refundsMinor
        totalMinor = fare.totalMinor
        total = trip.display.fare
        adjustments = (trip.adjustments ?? []).map {
            Adjustment(kind: $0.adjustmentKind, amountMinor: $0.amountMinor, reason: $0.reason, createdAt: $0.createdAt)
        }
    }
}
