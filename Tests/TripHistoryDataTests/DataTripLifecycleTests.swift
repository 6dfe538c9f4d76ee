import Foundation
import Synchronization
import Testing
import TripHistoryDataTestSupport
import TripHistoryDomain

@testable import TripHistoryData

/// Receipts, the adjustments ledger and the changes feed on PostgreSQL.
@Suite struct DataTripLifecycleTests {
    static var receipt: TripReceipt {
        TripReceipt(
            breakdown: [FareLine(kind: .base, amountMinor: 1000), FareLine(kind: .tolls, amountMinor: 234)],
            payment: Payment(method: .wallet, brand: "apple_pay", last4: nil),
            driver: Driver(
                firstName: "Zoë", vehicle: Vehicle(make: "Renault", model: "Zoe", color: "blue", plate: "AB-123-CD")),
            route: try! EncodedRoute.validated("_p~iF~ps|U_ulLnnqC_mqNvxq`@"))
    }

    private func tripWithReceipt(_ rider: RiderID) throws -> NewTrip {
        let plain = try dataTestTrip(rider: rider, requestedAtMicros: 1_767_225_600_000_000)
        let d = plain.details
        return try NewTrip.validated(
            riderID: rider, status: d.status, product: d.product, city: d.city, timeZone: d.timeZone,
            requestedAt: d.requestedAt, startedAt: d.startedAt, completedAt: d.completedAt, pickup: d.pickup,
            dropoff: d.dropoff, distanceMeters: d.distanceMeters, durationSeconds: d.durationSeconds, fare: d.fare,
            receipt: Self.receipt)
    }

    private func tip(_ amount: Int64, reason: String = "thanks") throws -> NewAdjustment {
        try NewAdjustment.requested(kind: .tip, amountMinor: amount, reason: reason)
    }

    @Test func aReceiptIsStoredAndReadBackOnTheDetailOnly() async throws {
        try await DataTestDatabase.withPool { pool in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let recorded = try await repository.record(try tripWithReceipt(rider), idempotency: nil).trip
            let detail = try #require(try await repository.trip(id: recorded.id, riderID: rider))
            #expect(detail.receipt == Self.receipt)
            #expect(detail.adjustments == [])
            #expect(detail.lifecycle == recorded.lifecycle)
            #expect(detail.lifecycle.version == 1)
            let row = try #require(
                try await repository.trips(
                    matching: TripPageQuery(riderID: rider, filter: .all, position: nil, fetchLimit: 5)
                ).first)
            #expect(row.receipt.isEmpty && row.adjustments == nil)
            // A trip without any part of a receipt writes no receipt row.
            let plain = try await repository.record(
                try dataTestTrip(rider: rider, requestedAtMicros: 1_767_225_700_000_000), idempotency: nil
            ).trip
            let rows = try await pool.withConnection { connection in
                try connection.query("SELECT count(*) FROM trip_receipts WHERE trip_id = \(plain.id.rawValue)").int64(
                    0, 0)
            }
            #expect(rows == 0)
        }
    }

    @Test func adjustmentsAppendToTheLedgerAndTheTotalsFollow() async throws {
        try await DataTestDatabase.withPool { pool in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let trip = try await repository.record(try tripWithReceipt(rider), idempotency: nil).trip
            let tipped = try await repository.adjust(
                try tip(300), tripID: trip.id, riderID: rider, expectedVersion: 1, idempotency: nil
            ) { _ in }
            #expect(tipped.trip.lifecycle.version == 2)
            #expect(tipped.trip.totalMinor == 1534)
            #expect(tipped.trip.lifecycle.updatedAt >= trip.lifecycle.recordedAt)
            // The ledger comes back through JSON: a reason with characters it escapes reads back unchanged.
            let reason = "route \"dispute\" \\ 🚕\n\u{2028}\t"
            let refund = try NewAdjustment.requested(kind: .refund, amountMinor: -534, reason: reason)
            let refunded = try await repository.adjust(
                refund, tripID: trip.id, riderID: rider, expectedVersion: nil, idempotency: nil
            ) { _ in }
            #expect(
                refunded.trip.lifecycle.totals
                    == AdjustmentTotals(tipsMinor: 300, refundsMinor: -534, correctionsMinor: 0))
            #expect(refunded.trip.adjustments?.map(\.amountMinor) == [300, -534])
            #expect(refunded.trip.adjustments?.map(\.kind) == [.tip, .refund])
            #expect(refunded.trip.adjustments?.map(\.reason) == ["thanks", reason])
            let detail = try #require(try await repository.trip(id: trip.id, riderID: rider))
            #expect(detail.adjustments == refunded.trip.adjustments)
            #expect(refunded.trip.receipt == Self.receipt)
            // A stale version, a refusing check, another rider, an unknown trip: nothing is written.
            await #expect(throws: TripHistoryError.preconditionFailed) {
                try await repository.adjust(
                    try tip(1), tripID: trip.id, riderID: rider, expectedVersion: 2, idempotency: nil
                ) { _ in }
            }
            await #expect(throws: ValidationError(field: "kind", reason: "no")) {
                try await repository.adjust(
                    try tip(1), tripID: trip.id, riderID: rider, expectedVersion: nil, idempotency: nil
                ) {
                    _ in throw ValidationError(field: "kind", reason: "no")
                }
            }
            await #expect(throws: TripHistoryError.notFound) {
                try await repository.adjust(
                    try tip(1), tripID: trip.id, riderID: DataTestDatabase.randomRiderID(), expectedVersion: nil,
                    idempotency: nil
                ) { _ in }
            }
            let after = try #require(try await repository.trip(id: trip.id, riderID: rider))
            #expect(after.lifecycle.version == 3)
            #expect(after.adjustments?.count == 2)
            // The database refuses a total below zero even from a writer that skipped the rules.
            await #expect(throws: (any Error).self) {
                try await repository.adjust(
                    try NewAdjustment.requested(kind: .refund, amountMinor: -5000, reason: "x"), tripID: trip.id,
                    riderID: rider, expectedVersion: nil, idempotency: nil
                ) { _ in }
            }
        }
    }

    @Test func aKeyedAdjustmentIsAppliedOnceAndReplayed() async throws {
        try await DataTestDatabase.withPool { pool in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let trip = try await repository.record(try tripWithReceipt(rider), idempotency: nil).trip
            let adjustment = try tip(250)
            let key = IdempotencyRequest(
                scope: "adjustment:data-tests", key: UUID().uuidString,
                fingerprint: adjustment.fingerprint(riderID: rider, tripID: trip.id))
            let first = try await repository.adjust(
                adjustment, tripID: trip.id, riderID: rider, expectedVersion: nil, idempotency: key
            ) { _ in }
            let again = try await repository.adjust(
                adjustment, tripID: trip.id, riderID: rider, expectedVersion: 1, idempotency: key
            ) { _ in }
            #expect(!first.replayed && again.replayed)
            #expect(again.trip == first.trip)
            let other = IdempotencyRequest(scope: key.scope, key: key.key, fingerprint: "another body")
            await #expect(throws: TripHistoryError.idempotencyKeyReused) {
                try await repository.adjust(
                    adjustment, tripID: trip.id, riderID: rider, expectedVersion: nil, idempotency: other
                ) { _ in }
            }
        }
    }

    @Test func concurrentAdjustmentsOfOneTripAreCheckedOneAtATime() async throws {
        try await DataTestDatabase.withPool(size: 8, acquireTimeout: .seconds(60), statementTimeout: .seconds(30)) {
            pool in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let trip = try await repository.record(try tripWithReceipt(rider), idempotency: nil).trip
            // Each may tip only while the tips stay at most 1,000: with the trip locked, exactly ten of forty pass.
            let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<40 {
                    group.addTask {
                        do {
                            _ = try await repository.adjust(
                                try tip(100), tripID: trip.id, riderID: rider, expectedVersion: nil, idempotency: nil
                            ) { current in
                                guard current.lifecycle.totals.tipsMinor + 100 <= 1000 else {
                                    throw ValidationError(field: "amount_minor", reason: "cap")
                                }
                            }
                            return true
                        } catch is ValidationError {
                            return false
                        }
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(results.filter { $0 }.count == 10)
            let after = try #require(try await repository.trip(id: trip.id, riderID: rider))
            #expect(after.lifecycle.version == 11)
            #expect(after.lifecycle.totals.tipsMinor == 1000)
            #expect(after.adjustments?.count == 10)
        }
    }

    @Test func theFeedStartsNowAndHandsOutRecordsAndAdjustmentsOnce() async throws {
        try await DataTestDatabase.withPool { pool in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            _ = try await repository.record(try tripWithReceipt(rider), idempotency: nil)
            let now = try await repository.currentChangePosition(riderID: rider)
            let empty = try await repository.changes(riderID: rider, after: now, limit: 10)
            #expect(empty.changes.isEmpty && empty.next == now && !empty.hasMore)
            #expect(now == ChangePosition(sequence: 1))
            let trip = try await repository.record(try tripWithReceipt(rider), idempotency: nil).trip
            _ = try await repository.adjust(
                try tip(100), tripID: trip.id, riderID: rider, expectedVersion: nil, idempotency: nil
            ) { _ in }
            let page = try await repository.changes(riderID: rider, after: now, limit: 10)
            // Recorded, then tipped, within one page: the trip once, as it stands now, without its receipt.
            #expect(page.changes.count == 1)
            guard case .upsert(let changed) = page.changes.first else {
                Issue.record("expected an upsert, got \(page.changes)")
                return
            }
            #expect(changed.id == trip.id && changed.lifecycle.version == 2 && changed.adjustments == nil)
            #expect(page.next > now)
            let rest = try await repository.changes(riderID: rider, after: page.next, limit: 10)
            #expect(rest.changes.isEmpty && rest.next == page.next)
            // Another rider's changes never show.
            let other = try await repository.changes(riderID: DataTestDatabase.randomRiderID(), after: now, limit: 10)
            #expect(other.changes.isEmpty)
        }
    }

    /// Writers take their places in the feed in another order than they began and hold them for random
    /// times before committing, and some roll back; a reader follows the feed meanwhile. Every committed change
    /// must be read exactly once, none that rolled back.
    @Test func theFeedNeverSkipsNorRepeatsAChangeUnderConcurrentWriters() async throws {
        try await DataTestDatabase.withPool(size: 10, acquireTimeout: .seconds(60), statementTimeout: .seconds(30)) {
            pool in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let start = try await repository.currentChangePosition(riderID: rider)
            #expect(start == .start)
            let writers = 8
            let perWriter = 1_250
            let (outcome, seen) = try await ConcurrentChangeWriters.run(
                pool: pool, riders: Array(repeating: rider, count: writers), perWriter: perWriter
            ) { writersDone in
                var position = start
                var seen: [TripID] = []
                while true {
                    let done = writersDone() != nil
                    let page = try await repository.changes(riderID: rider, after: position, limit: 100)
                    #expect(page.next >= position)
                    position = page.next
                    for change in page.changes { seen.append(change.tripID) }
                    // The writers had all finished before this read began, and it handed out all there was.
                    if done && !page.hasMore { return seen }
                }
            }
            let expected = outcome.committed
            #expect(expected.count == writers * perWriter)
            #expect(seen.count == expected.count, "read \(seen.count) changes for \(expected.count) commits")
            #expect(Set(seen).count == seen.count, "\(seen.count - Set(seen).count) changes repeated")
            #expect(Set(seen) == Set(expected), "\(Set(expected).subtracting(seen).count) changes skipped")
            #expect(try await repository.currentChangePosition(riderID: rider) == position(after: expected.count))
        }
    }

    /// The position after `count` changes of a rider whose feed began with them.
    private func position(after count: Int) -> ChangePosition {
        ChangePosition(sequence: Int64(count))
    }
}
