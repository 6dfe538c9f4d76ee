import Foundation
import Testing
import TripHistoryData
import TripHistoryDataTestSupport
import TripHistoryDomain

/// Expired idempotency keys and changes are deleted in batches; keys within the retention keep replaying.
/// Each test has a schema of its own: a purge reaches every row, and servers under test purge at startup.
@Suite struct DataExpiredRowPurgeTests {
    @Test func keysOlderThanTheRetentionArePurgedAndTheRestStillReplay() async throws {
        try await DataTestDatabase.withMigratedFreshSchema { (pool: PostgresConnectionPool) async throws in
            let repository = PostgresTripRepository(pool: pool)
            let scope = "purge-\(UUID().uuidString)"
            let rider = DataTestDatabase.randomRiderID()
            var trips: [(NewTrip, String)] = []
            for index in 0..<5 {
                let trip = try dataTestTrip(rider: rider, requestedAtMicros: 1_767_225_600_000_000 + Int64(index))
                let key = "key-\(index)"
                _ = try await repository.record(
                    trip, idempotency: IdempotencyRequest(scope: scope, key: key, fingerprint: trip.fingerprint))
                trips.append((trip, key))
            }
            // Keys 0-2 were used 25 hours ago; 3 and 4 an hour ago.
            try await pool.withConnection { connection in
                _ = try connection.query(
                    """
                    UPDATE idempotency_keys SET created_at = now() - make_interval(hours => CASE
                        WHEN key IN ('key-0', 'key-1', 'key-2') THEN 25 ELSE 1 END)
                    WHERE scope = \(scope)
                    """)
            }
            // Batches of two: the three expired keys take two batches, and only they go.
            let purger = ExpiredRowPurger(pool: pool, expiries: [.idempotencyKeys(.seconds(24 * 3600))], batchSize: 2)
            #expect(try await purger.purgeExpired() == 3)
            let left = try await pool.withConnection { connection in
                let rows = try connection.query("SELECT key FROM idempotency_keys WHERE scope = \(scope) ORDER BY key")
                return try (0..<rows.count).map { try rows.string($0, 0) ?? "" }
            }
            #expect(left == ["key-3", "key-4"])
            // A kept key still replays; a purged key records a new trip.
            let (kept, keptKey) = trips[4]
            let replay = try await repository.record(
                kept, idempotency: IdempotencyRequest(scope: scope, key: keptKey, fingerprint: kept.fingerprint))
            #expect(replay.replayed)
            let (purged, purgedKey) = trips[0]
            let again = try await repository.record(
                purged, idempotency: IdempotencyRequest(scope: scope, key: purgedKey, fingerprint: purged.fingerprint))
            #expect(again.replayed == false)
            #expect(try await purger.purgeExpired() == 0, "nothing else has expired")
        }
    }

    @Test func changesOlderThanTheFeedsRetentionArePurgedAndTheFeedGoesOn() async throws {
        try await DataTestDatabase.withMigratedFreshSchema { (pool: PostgresConnectionPool) async throws in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            for index in 0..<4 {
                _ = try await repository.record(
                    try dataTestTrip(rider: rider, requestedAtMicros: 1_767_225_600_000_000 + Int64(index)),
                    idempotency: nil)
            }
            // The first three changes were written 40 days ago.
            try await pool.withConnection { connection in
                _ = try connection.query(
                    """
                    UPDATE trip_changes SET changed_at = now() - make_interval(days => 40)
                    WHERE rider_id = \(rider.rawValue) AND seq <= 3
                    """)
            }
            let purger = ExpiredRowPurger(pool: pool, expiries: [.tripChanges(.seconds(31 * 86_400))], batchSize: 2)
            #expect(try await purger.purgeExpired() == 3)
            // Reading from before the purged entries would miss them; from the last of them, only the kept one.
            await #expect(throws: TripHistoryError.changesPurged) {
                try await repository.changes(riderID: rider, after: .start, limit: 10)
            }
            let page = try await repository.changes(riderID: rider, after: ChangePosition(sequence: 3), limit: 10)
            #expect(page.changes.count == 1)
            #expect(page.next == ChangePosition(sequence: 4))
            // The rider's numbering goes on after a purge.
            _ = try await repository.record(
                try dataTestTrip(rider: rider, requestedAtMicros: 1_767_225_600_000_009), idempotency: nil)
            #expect(try await repository.currentChangePosition(riderID: rider) == ChangePosition(sequence: 5))
        }
    }

    /// A position taken in the middle of a backlog whose later entries are then purged: both feeds refuse it
    /// (`.changesPurged`) instead of answering without those entries; a position at or past the purge still
    /// reads, and another rider's feed is untouched by this rider's purge.
    @Test func aPositionBehindThePurgeIsRefusedByBothFeedsAndOneAtItStillReads() async throws {
        try await DataTestDatabase.withMigratedFreshSchema { (pool: PostgresConnectionPool) async throws in
            let repository = PostgresTripRepository(pool: pool)
            let analyst = PostgresAnalystTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let other = DataTestDatabase.randomRiderID()
            let analystStart = try await analyst.currentChangePosition()
            for index in 0..<3 {
                _ = try await repository.record(
                    try dataTestTrip(rider: rider, requestedAtMicros: 1_767_225_600_000_000 + Int64(index)),
                    idempotency: nil)
            }
            _ = try await repository.record(
                try dataTestTrip(rider: other, requestedAtMicros: 1_767_225_600_000_000), idempotency: nil)
            // A reader took one entry of each feed, then stopped.
            let riderPosition = try await repository.changes(riderID: rider, after: .start, limit: 1).next
            #expect(riderPosition == ChangePosition(sequence: 1))
            let analystPosition = try await Self.firstNonEmptyPage(of: analyst, after: analystStart, limit: 1).next
            #expect(analystPosition.node?.riderID == rider.rawValue && analystPosition.node?.sequence == 1)
            // The rider's two later entries were written 40 days ago, and the purge removes them.
            try await pool.withConnection { connection in
                _ = try connection.query(
                    """
                    UPDATE trip_changes SET changed_at = now() - make_interval(days => 40)
                    WHERE rider_id = \(rider.rawValue) AND seq >= 2
                    """)
            }
            let purger = ExpiredRowPurger(pool: pool, expiries: [.tripChanges(.seconds(31 * 86_400))], batchSize: 1)
            #expect(try await purger.purgeExpired() == 2)
            await #expect(throws: TripHistoryError.changesPurged) {
                try await repository.changes(riderID: rider, after: riderPosition, limit: 10)
            }
            await #expect(throws: TripHistoryError.changesPurged) {
                try await analyst.changes(after: analystPosition, limit: 10)
            }
            // At the last purged entry nothing is missing: the feed goes on from there.
            let atMark = try await repository.changes(riderID: rider, after: ChangePosition(sequence: 3), limit: 10)
            #expect(atMark.changes.isEmpty && atMark.next == ChangePosition(sequence: 3))
            let mark = try await pool.withConnection { connection in
                let rows = try connection.query(
                    "SELECT xid::text::bigint, rider_id, seq FROM analyst_change_purge")
                return AnalystChangePosition(
                    transaction: UInt64(try rows.int64(0, 0) ?? 0), riderID: try rows.int64(0, 1) ?? 0,
                    sequence: try rows.int64(0, 2) ?? 0)
            }
            #expect(mark.riderID == rider.rawValue && mark.sequence == 3)
            // Another rider's entry, written after the purged ones, is what the analysts' feed has after the mark,
            // and that rider's own feed still reads from its start.
            let others = try await repository.changes(riderID: other, after: .start, limit: 10)
            #expect(others.changes.count == 1)
            let afterMark = try await Self.firstNonEmptyPage(of: analyst, after: .node(mark), limit: 10)
            #expect(afterMark.changes.map(\.tripID) == others.changes.map(\.tripID))
        }
    }

    /// The analysts' feed after `position` once it has an entry: it reads only transactions older than every
    /// running one, and other suites' transactions on the same server may run for a moment.
    private static func firstNonEmptyPage(
        of analyst: PostgresAnalystTripRepository, after position: AnalystFeedPosition, limit: Int
    ) async throws -> AnalystChangePage {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let page = try await analyst.changes(after: position, limit: limit)
            if !page.changes.isEmpty || ContinuousClock.now > deadline { return page }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
