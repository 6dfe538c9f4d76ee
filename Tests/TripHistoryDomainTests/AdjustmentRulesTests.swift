import Foundation
import Testing
import TripHistoryDomain
import TripHistoryFakes

@Suite struct AdjustmentRulesTests {
    static let completedAt = Date(timeIntervalSince1970: 1_772_400_000 + 240 + 1260)

    /// A stored trip of 18.34 USD with the given totals.
    static func trip(status: TripStatus = .completed, totals: AdjustmentTotals = .none) -> Trip {
        let new = TripFixtures.newTrip(status: status)
        return Trip(
            id: TripID(Int64(5))!, riderID: new.riderID, details: new.details,
            lifecycle: TripLifecycle(version: 1, recordedAt: completedAt, updatedAt: completedAt, totals: totals))
    }

    private func check(
        _ kind: AdjustmentKind, _ amount: Int64, trip: Trip = trip(), after days: Double = 1
    ) throws {
        try NewAdjustment.requested(kind: kind, amountMinor: amount, reason: "support")
            .check(against: trip, now: Self.completedAt.addingTimeInterval(days * 86_400), policy: AdjustmentPolicy())
    }

    private func refusal(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as ValidationError {
            return error.field
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func tipsArePositiveOnCompletedTripsWithinTheWindowAndUnderTheCap() {
        #expect(refusal { try check(.tip, 300) } == nil)
        #expect(refusal { try check(.tip, -300) } == "amount_minor")
        #expect(refusal { try check(.tip, 300, trip: Self.trip(status: .canceled)) } == "kind")
        #expect(refusal { try check(.tip, 300, after: 29.9) } == nil)
        #expect(refusal { try check(.tip, 300, after: 30.1) } == "kind")
        // Twice the fare is the cap, counting earlier tips.
        #expect(refusal { try check(.tip, 2 * 1834) } == nil)
        #expect(refusal { try check(.tip, 2 * 1834 + 1) } == "amount_minor")
        let tipped = Self.trip(totals: AdjustmentTotals(tipsMinor: 3000, refundsMinor: 0, correctionsMinor: 0))
        #expect(refusal { try check(.tip, 669, trip: tipped) } == "amount_minor")
        #expect(refusal { try check(.tip, 668, trip: tipped) } == nil)
    }

    @Test func refundsAreNegativeAndNeverTakeTheTotalBelowZero() {
        #expect(refusal { try check(.refund, -1834) } == nil)
        #expect(refusal { try check(.refund, -1835) } == "amount_minor")
        #expect(refusal { try check(.refund, 100) } == "amount_minor")
        // A tip paid counts: the rider paid fare plus tip.
        let tipped = Self.trip(totals: AdjustmentTotals(tipsMinor: 500, refundsMinor: 0, correctionsMinor: 0))
        #expect(refusal { try check(.refund, -2334, trip: tipped) } == nil)
        #expect(refusal { try check(.refund, -2335, trip: tipped) } == "amount_minor")
        // Refunds on a canceled trip are fine (a cancellation fee given back).
        #expect(refusal { try check(.refund, -100, trip: Self.trip(status: .canceled)) } == nil)
    }

    @Test func correctionsTakeEitherSignWithinBounds() {
        #expect(refusal { try check(.fareCorrection, 450) } == nil)
        #expect(refusal { try check(.fareCorrection, -1834) } == nil)
        #expect(refusal { try check(.fareCorrection, -1835) } == "amount_minor")
    }

    @Test func theRequestItselfIsCheckedBeforeAnyTrip() {
        #expect(refusal { _ = try NewAdjustment.requested(kind: .tip, amountMinor: 0, reason: "x") } == "amount_minor")
        #expect(refusal { _ = try NewAdjustment.requested(kind: .tip, amountMinor: 1, reason: "") } == "reason")
        #expect(
            refusal {
                _ = try NewAdjustment.requested(kind: .tip, amountMinor: 1, reason: String(repeating: "é", count: 257))
            }
                == "reason")
        #expect(
            refusal { _ = try NewAdjustment.requested(kind: .fareCorrection, amountMinor: .min, reason: "x") }
                == "amount_minor")
    }

    @Test func totalsAddUpByKind() {
        let totals = AdjustmentTotals.none.adding(.tip, 300).adding(.refund, -200).adding(.fareCorrection, 50)
        #expect(totals == AdjustmentTotals(tipsMinor: 300, refundsMinor: -200, correctionsMinor: 50))
        #expect(totals.sumMinor == 150)
    }
}
