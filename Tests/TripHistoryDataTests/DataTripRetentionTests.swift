import Foundation
import MetricsTestKit
import Testing
import TripHistoryDataTestSupport
import TripHistoryDomain

@testable import TripHistoryData

/// Trips past the retention leave with everything stored about them, month by month as the clock moves,
/// each reported to its rider's feed as erased. Each test has a schema of its own, so a run reaches only
/// its own trips.
@Suite struct DataTripRetentionTests {
    private static func instant(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text)!
    }

    private func trip(_ rider: RiderID, _ requested: String) throws -> NewTrip {
        try dataTestTrip(
            rider: rider, requestedAtMicros: Timestamp.micros(Self.instant(requested)),
            receipt: TripReceipt(
                breakdown: [FareLine(kind: .base, amountMinor: 1234)],
                payment: Payment(method: .card, brand: "visa", last4: "4242"), driver: nil, route: nil))
    }

    /// Rows of the tables that hold a trip's parts, for the given trips.
    private func partsLeft(of trips: [Trip], pool: PostgresConnectionPool) async throws -> Int64 {
        let ids = trips.map { String($0.id.rawValue) }.joined(separator: ",")
        return try await pool.withConnection { connection in
            try connection.query(
                """
                SELECT (SELECT count(*) FROM trips WHERE id IN (\(unsafeSQL: ids)))
                    + (SELECT count(*) FROM trip_receipts WHERE trip_id IN (\(unsafeSQL: ids)))
                    + (SELECT count(*) FROM trip_adjustments WHERE trip_id IN (\(unsafeSQL: ids)))
                    + (SELECT count(*) FROM idempotency_keys WHERE trip_id IN (\(unsafeSQL: ids)))
                """
            ).int64(0, 0) ?? -1
        }
    }

    @Test func monthsLeaveAsTheClockPassesTheirEndAndEachTripIsReportedErased() async throws {
        try await DataTestDatabase.withMigratedFreshSchema { (pool: PostgresConnectionPool) async throws in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let other = DataTestDatabase.randomRiderID()
            let september = [
                try await repository.record(
                    try trip(rider, "2026-09-01T00:00:00Z"),
                    idempotency: IdempotencyRequest(scope: "ingest", key: "retained-1", fingerprint: "f1")
                ).trip,
                try await repository.record(try trip(rider, "2026-09-30T23:59:59Z"), idempotency: nil).trip,
                try await repository.record(try trip(other, "2026-09-15T12:00:00Z"), idempotency: nil).trip,
            ]
            _ = try await repository.adjust(
                try NewAdjustment.requested(kind: .tip, amountMinor: 100, reason: "thanks"), tripID: september[1].id,
                riderID: rider, expectedVersion: nil, idempotency: nil
            ) { _ in }
            let october = try await repository.record(try trip(rider, "2026-10-01T00:00:00Z"), idempotency: nil).trip
            let riderBefore = try await repository.currentChangePosition(riderID: rider)
            let otherBefore = try await repository.currentChangePosition(riderID: other)

            // Kept 1 month before the current one: in November, September goes and October stays; batches
            // of two take the three trips in two.
            let clock = ManualClock(Self.instant("2026-11-30T23:59:59Z"))
            let metrics = TestMetrics()
            let remover = ExpiredTripRemover(
                pool: pool, retention: TripRetention(months: 1), batchSize: 2, now: { clock.now },
                metricsFactory: metrics)
            let started = Date().timeIntervalSince1970
            let first = try await remover.removeExpired()
            #expect(try metrics.expectCounter("trip_history_retention_removed_trips_total").totalValue == 3)
            let finished = try metrics.expectGauge("trip_history_retention_last_success_timestamp_seconds").lastValue
            #expect(finished.map { $0 >= started && $0 <= Date().timeIntervalSince1970 } == true, "wall time")
            #expect(first.cutoff == Self.instant("2026-10-01T00:00:00Z"))
            #expect(first.trips == 3)
            #expect(first.riders == 2, "the rider whose trips took both batches counts once")
            #expect(try await partsLeft(of: september, pool: pool) == 0)
            #expect(try await repository.trip(id: october.id, riderID: rider) != nil)
            let page = try await repository.trips(
                matching: TripPageQuery(riderID: rider, filter: .all, position: nil, fetchLimit: 10))
            #expect(page.map(\.id) == [october.id])

            // Apps holding a token from before read an erased entry per removed trip.
            let riderChanges = try await repository.changes(riderID: rider, after: riderBefore, limit: 10)
            #expect(riderChanges.changes == [.erased(september[0].id), .erased(september[1].id)])
            let otherChanges = try await repository.changes(riderID: other, after: otherBefore, limit: 10)
            #expect(otherChanges.changes == [.erased(september[2].id)])

            // Nothing more until the clock reaches December; then October goes too.
            #expect(try await remover.removeExpired().trips == 0)
            clock.now = Self.instant("2026-12-01T00:00:00Z")
            let second = try await remover.removeExpired()
            #expect(second.cutoff == Self.instant("2026-11-01T00:00:00Z"))
            #expect(second.trips == 1)
            #expect(try metrics.expectCounter("trip_history_retention_removed_trips_total").totalValue == 4)
            #expect(try await partsLeft(of: [october], pool: pool) == 0)
            let later = try await repository.changes(riderID: rider, after: riderChanges.next, limit: 10)
            #expect(later.changes == [.erased(october.id)])
        }
    }

    /// A trip a write holds locked is left for the next run instead of waiting for the write.
    @Test func aTripHeldByAWriteIsTakenAtTheNextRun() async throws {
        try await DataTestDatabase.withMigratedFreshSchema { (pool: PostgresConnectionPool) async throws in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let held = try await repository.record(try trip(rider, "2026-08-01T10:00:00Z"), idempotency: nil).trip
            let free = try await repository.record(try trip(rider, "2026-08-02T10:00:00Z"), idempotency: nil).trip
            let remover = ExpiredTripRemover(
                pool: pool, retention: TripRetention(months: 1), now: { Self.instant("2026-11-01T00:00:00Z") })
            let holder = try PostgresConnection(connectionString: pool.configuration.connectionString)
            try holder.execute(unsafeSQL: "BEGIN")
            _ = try holder.query("SELECT 1 FROM trips WHERE id = \(held.id.rawValue) FOR UPDATE")
            #expect(try await remover.removeExpired().trips == 1)
            #expect(try await partsLeft(of: [free], pool: pool) == 0)
            #expect(try await repository.trip(id: held.id, riderID: rider) != nil)
            try holder.execute(unsafeSQL: "COMMIT")
            #expect(try await remover.removeExpired().trips == 1)
            #expect(try await partsLeft(of: [held], pool: pool) == 0)
        }
    }
}

/// A clock a test sets by hand.
private final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Date

    init(_ start: Date) { value = start }

    var now: Date {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
