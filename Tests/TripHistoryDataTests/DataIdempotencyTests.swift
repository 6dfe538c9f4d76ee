import Foundation
import Testing
import TripHistoryData
import TripHistoryDataTestSupport
import TripHistoryDomain

@Suite struct DataIdempotencyTests {
    private func request(_ trip: NewTrip, key: String) -> IdempotencyRequest {
        IdempotencyRequest(scope: "data-tests", key: key, fingerprint: trip.fingerprint)
    }

    @Test func sameKeyAndBodyReplaysTheFirstTrip() async throws {
        try await DataTestDatabase.withPool { (pool: PostgresConnectionPool) async throws in
            let repository = PostgresTripRepository(pool: pool)
            let trip = try dataTestTrip(
                rider: DataTestDatabase.randomRiderID(), requestedAtMicros: 1_767_225_600_654_321)
            let key = UUID().uuidString
            let first = try await repository.record(trip, idempotency: request(trip, key: key))
            let second = try await repository.record(trip, idempotency: request(trip, key: key))
            #expect(first.replayed == false)
            #expect(second.replayed == true)
            #expect(second.trip == first.trip)
            let count = try await pool.withConnection { connection in
                try connection.query("SELECT count(*) FROM trips WHERE rider_id = \(trip.riderID.rawValue)").int64(0, 0)
            }
            #expect(count == 1)
        }
    }

    @Test func sameKeyWithAnotherBodyIsRejected() async throws {
        try await DataTestDatabase.withPool { (pool: PostgresConnectionPool) async throws in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let trip = try dataTestTrip(rider: rider, requestedAtMicros: 1_767_225_600_000_000)
            let other = try dataTestTrip(rider: rider, requestedAtMicros: 1_767_225_600_000_000, fare: 999)
            let key = UUID().uuidString
            _ = try await repository.record(trip, idempotency: request(trip, key: key))
            await #expect(throws: TripHistoryError.idempotencyKeyReused) {
                try await repository.record(other, idempotency: request(other, key: key))
            }
            // The same key under another scope is another key.
            let scoped = IdempotencyRequest(scope: "other-service", key: key, fingerprint: other.fingerprint)
            #expect(try await repository.record(other, idempotency: scoped).replayed == false)
        }
    }

    @Test func racingTwinGetsConflict() async throws {
        try await DataTestDatabase.withPool { (pool: PostgresConnectionPool) async throws in
            let repository = PostgresTripRepository(pool: pool)
            let trip = try dataTestTrip(
                rider: DataTestDatabase.randomRiderID(), requestedAtMicros: 1_767_225_600_000_000)
            let key = UUID().uuidString
            let holder = try await DataTestDatabase.makePool(size: 1)
            // The twin's transaction lock, held by another session for the length of the test.
            try await holder.withConnection { connection in
                _ = try connection.query("SELECT pg_advisory_lock(hashtextextended(\("data-tests:" + key), 0))")
            }
            await #expect(throws: TripHistoryError.conflict) {
                try await repository.record(trip, idempotency: request(trip, key: key))
            }
            try await holder.withConnection { connection in
                _ = try connection.query("SELECT pg_advisory_unlock(hashtextextended(\("data-tests:" + key), 0))")
            }
            await holder.shutdown()
            #expect(try await repository.record(trip, idempotency: request(trip, key: key)).replayed == false)
        }
    }
}
