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
            let page = try await repository.changes(riderID: rider, after: .start, limit: 10)
            #expect(page.changes.count == 1)
            #expect(page.next == ChangePosition(sequence: 4))
            // The rider's numbering goes on after a purge.
            _ = try await repository.record(
                try dataTestTrip(rider: rider, requestedAtMicros: 1_767_225_600_000_009), idempotency: nil)
            #expect(try await repository.currentChangePosition(riderID: rider) == ChangePosition(sequence: 5))
        }
    }
}
