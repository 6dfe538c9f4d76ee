import Foundation
import Testing
import TripHistoryDataTestSupport
import TripHistoryDomain

@testable import TripHistoryData

/// A synchronous standby that never answers (`synchronous_standby_names = 'ANY 1 (ghost)'`, what a stalled
/// or partitioned standby looks like to the primary), on a cluster of the test's own: a trip whose commit the
/// standby never confirmed must never be acknowledged, neither on the first try nor on an idempotent replay,
/// since promoting the standby would lose it.
@Suite struct DataCommitDurabilityTests {
    /// Short timeouts, so a commit waiting for the ghost is given up on quickly.
    private static func configuration(_ connectionString: String) -> PostgresConnectionPool.Configuration {
        PostgresConnectionPool.Configuration(
            connectionString: connectionString, size: 4, acquireTimeout: .seconds(2),
            statementTimeout: .seconds(1), connectTimeout: .seconds(2), pipelinedConnections: 1,
            queryGrace: .milliseconds(500)
        )
    }

    private static func request(_ trip: NewTrip, key: String) -> IdempotencyRequest {
        IdempotencyRequest(scope: "durability-tests", key: key, fingerprint: trip.fingerprint)
    }

    private static func isUnavailable(_ outcome: Result<RecordedTrip, any Error>) -> Bool {
        guard case .failure(TripHistoryError.unavailable) = outcome else { return false }
        return true
    }

    private static func outcome(_ body: () async throws -> RecordedTrip) async -> Result<RecordedTrip, any Error> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    /// Runs `body` on a private cluster whose commits wait for a synchronous standby that does not exist;
    /// `release` drops that requirement, which ends every wait still in progress.
    private static func withGhostStandby(
        _ body: (PostgresConnectionPool, _ admin: PostgresConnection, _ release: () throws -> Void) async throws -> Void
    ) async throws {
        let cluster = try await FreezableCluster.start()
        defer { cluster.remove() }
        let admin = try PostgresConnection(connectionString: cluster.connectionString, statementTimeoutMilliseconds: 0)
        // The test clusters trade durability for speed (synchronous_commit = off); ALTER SYSTEM wins over that.
        // One statement a message: ALTER SYSTEM refuses to run in the implicit transaction of several.
        try admin.execute(unsafeSQL: "ALTER SYSTEM SET synchronous_commit = 'on'")
        try admin.execute(unsafeSQL: "ALTER SYSTEM SET synchronous_standby_names = 'ANY 1 (ghost)'")
        try admin.execute(unsafeSQL: "SELECT pg_reload_conf()")
        let release = {
            try admin.execute(unsafeSQL: "ALTER SYSTEM RESET synchronous_standby_names")
            try admin.execute(unsafeSQL: "SELECT pg_reload_conf()")
        }
        try await waitUntilCommitsWait(cluster.connectionString)
        let pool = PostgresConnectionPool(configuration: configuration(cluster.connectionString))
        do {
            try await body(pool, admin, release)
        } catch {
            try? release()
            await pool.shutdown()
            throw error
        }
        try? release()
        await pool.shutdown()
    }

    /// The checkpointer applies a reload's standby names a moment after `pg_reload_conf()` returns: probes with
    /// a committing transaction until a commit is held back.
    private static func waitUntilCommitsWait(_ connectionString: String) async throws {
        for _ in 0..<50 {
            let probe = try PostgresConnection(
                connectionString: connectionString, statementTimeoutMilliseconds: 200, queryGrace: .milliseconds(300))
            do {
                // A commit waits for standbys only when its transaction wrote WAL.
                try probe.transaction { try $0.execute(unsafeSQL: "SELECT pg_logical_emit_message(true, 'probe', '')") }
            } catch let error as PostgresError where error.kind == .timedOut {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("commits never started waiting for the ghost standby")
    }

    /// Retries `body` until it stops failing as `conflict` or `unavailable` (a commit still settling), for up to a
    /// minute.
    private static func settled(_ body: () async throws -> RecordedTrip) async throws -> RecordedTrip {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            do {
                return try await body()
            } catch {
                switch error {
                case TripHistoryError.conflict, TripHistoryError.unavailable:
                    guard ContinuousClock.now < deadline else { throw error }
                    try await Task.sleep(for: .milliseconds(200))
                default:
                    throw error
                }
            }
        }
    }

    private static func count(_ rider: RiderID, _ pool: PostgresConnectionPool) async throws -> Int64 {
        try await pool.withConnection { connection in
            try connection.query("SELECT count(*) FROM trips WHERE rider_id = \(rider.rawValue)").int64(0, 0) ?? -1
        }
    }

    /// The commit is not canceled when the client gives up on it: the trip stays invisible while the server
    /// waits for the standby, a replay under the same key cannot answer 201, and once the standby requirement
    /// is lifted the replay returns the one trip that was stored.
    @Test func aCommitTheStandbyNeverConfirmedIsNeitherAcknowledgedNorReplayed() async throws {
        try await Self.withGhostStandby { pool, _, release in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let trip = try dataTestTrip(rider: rider, requestedAtMicros: 1_767_225_600_000_000)
            let key = UUID().uuidString

            let first = await Self.outcome {
                try await repository.record(trip, idempotency: Self.request(trip, key: key))
            }
            #expect(Self.isUnavailable(first), "\(first)")
            #expect(try await Self.count(rider, pool) == 0, "a commit waiting for its standby was canceled")

            let replay = await Self.outcome {
                try await repository.record(trip, idempotency: Self.request(trip, key: key))
            }
            #expect((try? replay.get()) == nil, "a replay acknowledged a trip the standby never had: \(replay)")

            try release()
            let settled = try await Self.settled {
                try await repository.record(trip, idempotency: Self.request(trip, key: key))
            }
            #expect(settled.replayed)
            #expect(try await Self.count(rider, pool) == 1)
        }
    }

    /// With a standby's copy required, a commit on a server that no standby streams from is not acknowledged
    /// (whatever `synchronous_standby_names` says, as while a failover manager has turned synchronous
    /// replication off): the trip stands on the primary, but the answer is `unavailable`, outcome unknown.
    @Test func withoutAStreamingStandbyAWriteRequiringACopyIsNotAcknowledged() async throws {
        let cluster = try await FreezableCluster.start()
        defer { cluster.remove() }
        let pool = PostgresConnectionPool(configuration: Self.configuration(cluster.connectionString))
        let repository = PostgresTripRepository(pool: pool, requiresStandbyCopy: true)
        let rider = DataTestDatabase.randomRiderID()
        let trip = try dataTestTrip(rider: rider, requestedAtMicros: 1_767_225_600_000_000)
        let outcome = await Self.outcome { try await repository.record(trip, idempotency: nil) }
        #expect(Self.isUnavailable(outcome), "\(outcome)")
        #expect(try await Self.count(rider, pool) == 1, "the commit stands on the primary")
        await pool.shutdown()
    }

    /// With the test cluster's streaming standby (`TRIP_HISTORY_TEST_READ_URL`, applying 3 s late), a write
    /// requiring a copy is acknowledged, and the standby then shows the trip once it has applied it.
    @Test func withAStreamingStandbyAWriteRequiringACopyIsAcknowledged() async throws {
        guard let readURL = ProcessInfo.processInfo.environment["TRIP_HISTORY_TEST_READ_URL"], !readURL.isEmpty else {
            Issue.record("TRIP_HISTORY_TEST_READ_URL is not set: this test needs the standby scripts/test starts")
            return
        }
        try await DataTestDatabase.withPool(size: 2) { pool in
            let repository = PostgresTripRepository(pool: pool, requiresStandbyCopy: true)
            let rider = DataTestDatabase.randomRiderID()
            let recorded = try await repository.record(
                dataTestTrip(rider: rider, requestedAtMicros: 1_767_225_600_000_000), idempotency: nil)
            #expect(!recorded.replayed)
            let standby = try PostgresConnection(connectionString: readURL)
            let deadline = ContinuousClock.now + .seconds(60)
            var onStandby: Int64 = 0
            while onStandby == 0, ContinuousClock.now < deadline {
                do {
                    onStandby =
                        try standby.query("SELECT count(*) FROM trips WHERE id = \(recorded.trip.id.rawValue)")
                        .int64(0, 0) ?? 0
                } catch let error as PostgresError where error.sqlState == "42P01" {
                    // Run first, this test can be faster than the standby applies the migrations.
                }
                if onStandby == 0 { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(onStandby == 1)
        }
    }

    /// A commit whose wait for the standby ended without the standby's copy (here its backend is terminated
    /// while waiting, so the commit stays only on the primary): a replay under the same key finds the trip,
    /// but must wait for the standby as the original did, and answers `unavailable` while it does not come.
    @Test func aReplayOfALocallyCommittedTripWaitsForTheStandby() async throws {
        try await Self.withGhostStandby { pool, admin, release in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let trip = try dataTestTrip(rider: rider, requestedAtMicros: 1_767_225_600_000_000)
            let key = UUID().uuidString

            let first = await Self.outcome {
                try await repository.record(trip, idempotency: Self.request(trip, key: key))
            }
            #expect(Self.isUnavailable(first), "\(first)")
            try admin.execute(
                unsafeSQL: "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE wait_event = 'SyncRep'")
            let deadline = ContinuousClock.now + .seconds(30)
            while try await Self.count(rider, pool) == 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(try await Self.count(rider, pool) == 1, "the terminated commit should stand on the primary")

            let replay = await Self.outcome {
                try await repository.record(trip, idempotency: Self.request(trip, key: key))
            }
            #expect(Self.isUnavailable(replay), "a replay acknowledged a trip the standby never had: \(replay)")

            try release()
            let settled = try await Self.settled {
                try await repository.record(trip, idempotency: Self.request(trip, key: key))
            }
            #expect(settled.replayed)
            #expect(try await Self.count(rider, pool) == 1)
        }
    }
}
