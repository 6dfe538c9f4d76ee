import Foundation
import MetricsTestKit
import Testing
import TripHistoryDataTestSupport
import TripHistoryDomain

@testable import TripHistoryData

/// Trips past the retention leave with everything stored about them, a year at a time as the clock moves,
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

    /// Whether the schema has a table of this name.
    private func tableExists(_ name: String, pool: PostgresConnectionPool) async throws -> Bool {
        try await pool.withConnection { connection in
            try connection.query("SELECT to_regclass(\(name)) IS NOT NULL").bool(0, 0) == true
        }
    }

    @Test func yearsLeaveWholeOnceTheCutoffPassesTheirEndAndEachTripIsReportedErased() async throws {
        try await DataTestDatabase.withMigratedFreshSchema { (pool: PostgresConnectionPool) async throws in
            _ = try await TripTablePartitioner(pool: pool).partition()
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let other = DataTestDatabase.randomRiderID()
            #expect(try await !tableExists("trips_y2024", pool: pool))
            let of2024 = [
                try await repository.record(
                    try trip(rider, "2024-06-01T00:00:00Z"),
                    idempotency: IdempotencyRequest(scope: "ingest", key: "retained-1", fingerprint: "f1")
                ).trip,
                try await repository.record(try trip(other, "2024-12-31T23:59:59Z"), idempotency: nil).trip,
            ]
            // A trip of a year without a partition created it on its way.
            #expect(try await tableExists("trips_y2024", pool: pool))
            let of2025 = [
                try await repository.record(try trip(rider, "2025-01-01T00:00:00Z"), idempotency: nil).trip,
                try await repository.record(try trip(rider, "2025-12-31T23:59:59Z"), idempotency: nil).trip,
            ]
            _ = try await repository.adjust(
                try NewAdjustment.requested(kind: .tip, amountMinor: 100, reason: "thanks"), tripID: of2025[1].id,
                riderID: rider, expectedVersion: nil, idempotency: nil
            ) { _ in }
            let of2026 = try await repository.record(try trip(rider, "2026-01-01T00:00:00Z"), idempotency: nil).trip
            let riderBefore = try await repository.currentChangePosition(riderID: rider)
            let otherBefore = try await repository.currentChangePosition(riderID: other)

            // Kept: 1 month before the current one. Mid-December 2025 the cutoff is November 1st: 2024 has
            // ended before it and goes whole; 2025 has not and stays whole, its January trip too. Batches of
            // one take the two trips in two.
            let clock = ManualClock(Self.instant("2025-12-15T12:00:00Z"))
            let metrics = TestMetrics()
            let remover = ExpiredTripRemover(
                pool: pool, retention: TripRetention(months: 1), batchSize: 1, now: { clock.now },
                metricsFactory: metrics)
            let started = Date().timeIntervalSince1970
            let first = try await remover.removeExpired()
            #expect(try metrics.expectCounter("trip_history_retention_removed_trips_total").totalValue == 2)
            let finished = try metrics.expectGauge("trip_history_retention_last_success_timestamp_seconds").lastValue
            #expect(finished.map { $0 >= started && $0 <= Date().timeIntervalSince1970 } == true, "wall time")
            #expect(first.cutoff == Self.instant("2025-11-01T00:00:00Z"))
            #expect(first.years == [2024])
            #expect(first.trips == 2)
            #expect(first.riders == 2)
            #expect(try await partsLeft(of: of2024, pool: pool) == 0)
            #expect(try await !tableExists("trips_y2024", pool: pool), "the year's table is dropped")
            let page = try await repository.trips(
                matching: TripPageQuery(riderID: rider, filter: .all, position: nil, fetchLimit: 10))
            #expect(page.map(\.id) == [of2026.id, of2025[1].id, of2025[0].id])

            // Apps holding a token from before read an erased entry per removed trip.
            let riderChanges = try await repository.changes(riderID: rider, after: riderBefore, limit: 10)
            #expect(riderChanges.changes == [.erased(of2024[0].id)])
            let otherChanges = try await repository.changes(riderID: other, after: otherBefore, limit: 10)
            #expect(otherChanges.changes == [.erased(of2024[1].id)])

            // Nothing more until the cutoff reaches 2026; then 2025 goes, with its ledger.
            clock.now = Self.instant("2026-01-31T23:59:59Z")
            #expect(try await remover.removeExpired().trips == 0)
            clock.now = Self.instant("2026-02-01T00:00:00Z")
            let second = try await remover.removeExpired()
            #expect(second.cutoff == Self.instant("2026-01-01T00:00:00Z"))
            #expect(second.years == [2025])
            #expect(second.trips == 2)
            #expect(try metrics.expectCounter("trip_history_retention_removed_trips_total").totalValue == 4)
            #expect(try await partsLeft(of: of2025, pool: pool) == 0)
            #expect(try await repository.trip(id: of2026.id, riderID: rider) != nil)
            let later = try await repository.changes(riderID: rider, after: riderChanges.next, limit: 10)
            #expect(later.changes == [.erased(of2025[0].id), .erased(of2025[1].id)])
        }
    }

    /// A removal that stopped after detaching a year and reporting part of it goes on from its last batch at
    /// the next run: each trip is reported once.
    @Test func aRemovalThatStoppedMidwayGoesOnFromItsLastBatch() async throws {
        try await DataTestDatabase.withMigratedFreshSchema { (pool: PostgresConnectionPool) async throws in
            _ = try await TripTablePartitioner(pool: pool).partition()
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            var recorded: [Trip] = []
            for day in 1...3 {
                recorded.append(
                    try await repository.record(try trip(rider, "2023-03-0\(day)T10:00:00Z"), idempotency: nil).trip)
            }
            let trips = recorded
            let before = try await repository.currentChangePosition(riderID: rider)
            // The state a run leaves when it stops after its first batch: detached, one trip reported.
            try await pool.withConnection { connection in
                try connection.execute(unsafeSQL: "ALTER TABLE trips DETACH PARTITION trips_y2023")
                let first = trips[0].id.rawValue
                try connection.execute(
                    unsafeSQL: "INSERT INTO trip_retirements (year, reported_through) VALUES (2023, \(first))")
            }
            let remover = ExpiredTripRemover(
                pool: pool, retention: TripRetention(months: 1), now: { Self.instant("2026-11-15T00:00:00Z") })
            let removal = try await remover.removeExpired()
            #expect(removal.years == [2023])
            #expect(removal.trips == 2)
            let changes = try await repository.changes(riderID: rider, after: before, limit: 10)
            #expect(changes.changes == [.erased(trips[1].id), .erased(trips[2].id)])
            #expect(try await !tableExists("trips_y2023", pool: pool))
            let progress = try await pool.withConnection {
                try $0.query("SELECT count(*) FROM trip_retirements").int64(0, 0)
            }
            #expect(progress == 0)
        }
    }

    /// An erasure reaches a year the retention has detached and not finished removing: the rider's rows leave
    /// that table at once, each trip the retention had not reported yet gets its `erased` entry and loses its
    /// parts, the audit record counts them, and the retention then reports none of them again.
    @Test func anErasureReachesAYearDetachedAndNotYetRemoved() async throws {
        try await DataTestDatabase.withMigratedFreshSchema { (pool: PostgresConnectionPool) async throws in
            _ = try await TripTablePartitioner(pool: pool).partition()
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let other = DataTestDatabase.randomRiderID()
            var recorded: [Trip] = []
            for day in 1...3 {
                recorded.append(
                    try await repository.record(try trip(rider, "2023-03-0\(day)T10:00:00Z"), idempotency: nil).trip)
            }
            _ = try await repository.adjust(
                try NewAdjustment.requested(kind: .tip, amountMinor: 100, reason: "thanks"), tripID: recorded[2].id,
                riderID: rider, expectedVersion: nil, idempotency: nil
            ) { _ in }
            let others = try await repository.record(try trip(other, "2023-03-05T10:00:00Z"), idempotency: nil).trip
            let kept = try await repository.record(try trip(rider, "2026-01-01T00:00:00Z"), idempotency: nil).trip
            let trips = recorded
            let before = try await repository.currentChangePosition(riderID: rider)
            // The state a retention run leaves when it stops after its first batch: detached, one trip reported
            // (its parts deleted, as the report's batch deletes them).
            try await pool.withConnection { connection in
                let first = trips[0].id.rawValue
                try connection.execute(unsafeSQL: "ALTER TABLE trips DETACH PARTITION trips_y2023")
                try connection.execute(
                    unsafeSQL: "INSERT INTO trip_retirements (year, reported_through) VALUES (2023, \(first))")
                try connection.execute(unsafeSQL: "DELETE FROM trip_receipts WHERE trip_id = \(first)")
            }
            let erasure = try await repository.erase(riderID: rider, requestedBy: "privacy-desk")
            #expect(erasure.trips == 3, "the kept trip and the two the retention had not reported")
            #expect(erasure.adjustments == 1)
            let left = try await pool.withConnection { connection in
                try connection.query(
                    "SELECT count(*) FROM trips_y2023 WHERE rider_id = \(rider.rawValue)"
                ).int64(0, 0)
            }
            #expect(left == 0, "no row of the erased rider waits in the detached year")
            #expect(try await partsLeft(of: trips + [kept], pool: pool) == 0)
            let erased = try await repository.changes(riderID: rider, after: before, limit: 10)
            #expect(Set(erased.changes) == [.erased(trips[1].id), .erased(trips[2].id), .erased(kept.id)])
            // The retention goes on: the other rider's trip is reported, the erased rider's trips are not again.
            let remover = ExpiredTripRemover(
                pool: pool, retention: TripRetention(months: 1), now: { Self.instant("2026-11-15T00:00:00Z") })
            let removal = try await remover.removeExpired()
            #expect(removal.years == [2023])
            #expect(removal.trips == 1)
            #expect(try await repository.changes(riderID: rider, after: erased.next, limit: 10).changes.isEmpty)
            #expect(try await partsLeft(of: [others], pool: pool) == 0)
            #expect(try await !tableExists("trips_y2023", pool: pool))
        }
    }
}

/// A retention on the unpartitioned table removes nothing and says what it needs.
@Suite struct DataTripRetentionLayoutTests {
    @Test func anUnpartitionedTableKeepsItsTripsAndTheRunFails() async throws {
        try await DataTestDatabase.withMigratedFreshSchema { (pool: PostgresConnectionPool) async throws in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let old = try await repository.record(
                try dataTestTrip(rider: rider, requestedAtMicros: 1_262_304_000_000_000), idempotency: nil
            ).trip  // 2010
            let remover = ExpiredTripRemover(pool: pool, retention: TripRetention(months: 1))
            await #expect(throws: RetentionError.self) { try await remover.removeExpired() }
            #expect(try await repository.trip(id: old.id, riderID: rider) != nil)
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
