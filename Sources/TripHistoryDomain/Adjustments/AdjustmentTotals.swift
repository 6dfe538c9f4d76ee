/// The sums of a trip's adjustments by kind, kept with the trip so that lists, exports and stats need not
/// read the ledger.
public struct AdjustmentTotals: Hashable, Sendable {
    /// Zero or more.
    public let tipsMinor: Int64
    /// Zero or less.
    public let refundsMinor: Int64
    public let correctionsMinor: Int64

    public init(tipsMinor: Int64, refundsMinor: Int64, correctionsMinor: Int64) {
        self.tipsMinor = tipsMinor
        self.refundsMinor = refundsMinor
        self.correctionsMinor = correctionsMinor
    }

    public static let none = AdjustmentTotals(tipsMinor: 0, refundsMinor: 0, correctionsMinor: 0)

    /// Every adjustment together.
    public var sumMinor: Int64 { tipsMinor + refundsMinor + correctionsMinor }

    /// These totals with one more adjustment.
    public func adding(_ kind: AdjustmentKind, _ amountMinor: Int64) -> AdjustmentTotals {
        switch kind {
        case .tip:
            AdjustmentTotals(
                tipsMinor: tipsMinor + amountMinor, refundsMinor: refundsMinor, correctionsMinor: correctionsMinor)
        case .refund:
            AdjustmentTotals(
                tipsMinor: tipsMinor, refundsMinor: refundsMinor + amountMinor, correctionsMinor: correctionsMinor)
        case .fareCorrection:
            AdjustmentTotals(
                tipsMinor: tipsMinor, refundsMinor: refundsMinor, correctionsMinor: correctionsMinor + amountMinor)
        }
    }
}
