public import Foundation

/// An adjustment asked for, not yet stored. `validated(against:...)` applies every rule that depends on the
/// trip as it is when the adjustment is made, so the store calls it with the trip locked.
public struct NewAdjustment: Hashable, Sendable {
    public let kind: AdjustmentKind
    public let amountMinor: Int64
    public let reason: String

    /// What a request asks for, checked on its own (the reason's length, the amount's bounds); the trip's
    /// rules come later.
    public static func requested(
        kind: AdjustmentKind, amountMinor: Int64, reason: String
    ) throws(ValidationError) -> NewAdjustment {
        guard amountMinor != 0 else {
            throw ValidationError(field: "amount_minor", reason: "must not be zero")
        }
        guard amountMinor.magnitude <= UInt64(NewTrip.maximumFareMinor) else {
            throw ValidationError(field: "amount_minor", reason: "must be at most \(NewTrip.maximumFareMinor) in size")
        }
        // The signs the kind fixes are the request's own rules, so they come before the trip's (and its If-Match).
        switch kind {
        case .tip where amountMinor < 0:
            throw ValidationError(field: "amount_minor", reason: "must be positive for a tip")
        case .refund where amountMinor > 0:
            throw ValidationError(field: "amount_minor", reason: "must be negative for a refund")
        default:
            break
        }
        guard !reason.isEmpty, reason.utf8.count <= NewTrip.maximumTextBytes,
            !reason.unicodeScalars.contains(where: { $0.value == 0 })
        else {
            throw ValidationError(
                field: "reason", reason: "must be 1 to \(NewTrip.maximumTextBytes) bytes long, without NUL characters")
        }
        return NewAdjustment(kind: kind, amountMinor: amountMinor, reason: reason)
    }

    private init(kind: AdjustmentKind, amountMinor: Int64, reason: String) {
        self.kind = kind
        self.amountMinor = amountMinor
        self.reason = reason
    }

    /// Checks this adjustment (its sign already checked by `requested`) against `trip` as it stands at `now`:
    /// - a tip is only on a completed trip, within the policy's window after completion, and the trip's tips
    ///   stay at most `AdjustmentPolicy.tipCapFactor` times the fare charged;
    /// - a refund never takes the total below zero;
    /// - a fare correction is either sign, and the total stays between zero and `NewTrip.maximumFareMinor`.
    public func check(against trip: Trip, now: Date, policy: AdjustmentPolicy) throws(ValidationError) {
        let charged = trip.details.fare.amountMinor
        let totals = trip.lifecycle.totals
        let newTotal = charged + totals.sumMinor + amountMinor
        switch kind {
        case .tip:
            guard trip.status == .completed, let completedAt = trip.details.completedAt else {
                throw ValidationError(field: "kind", reason: "tip is accepted only on a completed trip")
            }
            let window = TimeInterval(policy.tipWindowDays) * 86_400
            guard now.timeIntervalSince(completedAt) <= window else {
                throw ValidationError(
                    field: "kind", reason: "tip is accepted only within \(policy.tipWindowDays) days after the trip")
            }
            let (cap, overflow) = charged.multipliedReportingOverflow(by: AdjustmentPolicy.tipCapFactor)
            guard overflow || totals.tipsMinor + amountMinor <= cap else {
                throw ValidationError(
                    field: "amount_minor",
                    reason: "would bring the trip's tips above \(AdjustmentPolicy.tipCapFactor) times its fare")
            }
        case .refund:
            guard newTotal >= 0 else {
                throw ValidationError(field: "amount_minor", reason: "would refund more than the rider paid")
            }
        case .fareCorrection:
            guard newTotal >= 0, newTotal <= NewTrip.maximumFareMinor else {
                throw ValidationError(
                    field: "amount_minor", reason: "would take the total outside 0 to \(NewTrip.maximumFareMinor)")
            }
        }
    }

    /// A canonical text of the request: two requests under the same idempotency key are the same exactly when
    /// their fingerprints are equal.
    public func fingerprint(riderID: RiderID, tripID: TripID) -> String {
        let fields = [
            "adjustment", riderID.description, tripID.description, kind.rawValue, String(amountMinor), reason,
        ]
        return fields.map { "\($0.utf8.count):\($0)" }.joined(separator: "|")
    }
}
