import Foundation
import Synchronization
import Testing
import TripHistoryDataTestSupport
import TripHistoryDomain

@testable import TripHistoryData

/// A PostgreSQL that stops answering without closing its sockets: every server process of a cluster of the
/// test's own is stopped with SIGSTOP, as when a network drops packets silently. Statements must then fail
/// with the query timeout (the repositories' `unavailable`, a 503), never hang, and the pool must recover by
/// itself once the server answers again.
@Suite struct DataNetworkFaultTests {
    /// Only a guard so a hang fails the test instead of stalling the run; far beyond any timeout used here,
    /// never a timing expectation.
    private static let hangGuard: Duration = .seconds(180)

    /// Short server and client timeouts, so a frozen server is given up on quickly.
    private static func configuration(
        _ connectionString: String, acquireTimeout: Duration = .seconds(2), maximumPipelineBatch: Int = 16,
        maximumQueuedReads: Int = 1024
    ) -> PostgresConnectionPool.Configuration {
        PostgresConnectionPool.Configuration(
            connectionString: connectionString, size: 2, acquireTimeout: acquireTimeout,
            statementTimeout: .seconds(1), connectTimeout: .seconds(2), pipelinedConnections: 1,
            maximumPipelineBatch: maximumPipelineBatch, maximumQueuedReads: maximumQueuedReads,
            queryGrace: .milliseconds(500)
        )
    }

    /// Runs `body` with a migrated pool (`configuration` with the private cluster's connection string) on a
    /// private cluster, which is removed afterwards on every path.
    private static func withPrivateCluster(
        acquireTimeout: Duration = .seconds(2), maximumPipelineBatch: Int = 16, maximumQueuedReads: Int = 1024,
        _ body: (FreezableCluster, PostgresConnectionPool) async throws -> Void
    ) async throws {
        let cluster = try await FreezableCluster.start()
        defer { cluster.remove() }
        let pool = PostgresConnectionPool(
            configuration: configuration(
                cluster.connectionString, acquireTimeout: acquireTimeout, maximumPipelineBatch: maximumPipelineBatch,
                maximumQueuedReads: maximumQueuedReads)
        ).running()
        do {
            try await body(cluster, pool)
        } catch {
            await pool.shutdown()
            throw error
        }
        await pool.shutdown()
    }

    /// The outcome of `body`, recorded as a failure (and nil) when it did not complete within the guard.
    private static func guarded<T: Sendable>(
        _ what: String, _ body: @escaping @Sendable () async throws -> T
    ) async -> Result<T, any Error>? {
        let outcome = await outcome(within: hangGuard, body)
        if outcome == nil { Issue.record("\(what) did not complete: a call blocked on the frozen server") }
        return outcome
    }

    /// Polls `body` until it succeeds, for up to a minute; records a failure when it never does.
    private static func eventually(_ what: String, _ body: () async throws -> Void) async {
        let deadline = ContinuousClock.now + .seconds(60)
        var lastError: (any Error)?
        while ContinuousClock.now < deadline {
            do {
                try await body()
                return
            } catch {
                lastError = error
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
        Issue.record("\(what) never succeeded after the server came back: \(String(describing: lastError))")
    }

    private static func isUnavailable(_ outcome: Result<some Sendable, any Error>?) -> Bool {
        guard case .failure(let error) = outcome else { return false }
        if case TripHistoryError.unavailable(let seconds) = error { return seconds > 0 }
        return false
    }

    private static func kind(_ outcome: Result<some Sendable, any Error>?) -> PostgresError.Kind? {
        guard case .failure(let error as PostgresError) = outcome else { return nil }
        return error.kind
    }

    private static func firstPage(_ rider: RiderID) -> TripPageQuery {
        TripPageQuery(riderID: rider, filter: .all, position: nil, fetchLimit: 10)
    }

    @Test func readsAndWritesFailAsUnavailableWhileTheServerIsFrozenAndThePoolRecovers() async throws {
        try await Self.withPrivateCluster { cluster, pool in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let recorded = try await repository.record(
                dataTestTrip(rider: rider, requestedAtMicros: 1_767_225_600_000_000), idempotency: nil)
            // Both kinds of connection are open and idle when the server freezes, and so is the health check's.
            #expect(try await repository.trips(matching: Self.firstPage(rider)).map(\.id) == [recorded.trip.id])
            let health = try DatabaseHealthMonitor(
                connectionString: cluster.connectionString, migrationsDirectory: DataTestDatabase.migrationsDirectory)
            var healthConnection: PostgresConnection?
            #expect(health.check(&healthConnection))
            let checked = healthConnection

            try await cluster.whileFrozen {
                // The open connections: a statement sent gets no answer and is given up on.
                let lent = await Self.guarded("a statement on a lent connection") {
                    try await pool.withConnection { try $0.query("SELECT 1").int64(0, 0) }
                }
                #expect(Self.kind(lent) == .timedOut)
                let pipelined = await Self.guarded("a pipelined read") {
                    try await pool.readFirst(TripByID(id: recorded.trip.id, riderID: rider))
                }
                #expect(Self.kind(pipelined) == .timedOut)
                // Through the repository, on connections opened anew or given up: the domain's unavailable.
                let read = await Self.guarded("a rider read") {
                    try await repository.trips(matching: Self.firstPage(rider))
                }
                #expect(Self.isUnavailable(read))
                let write = await Self.guarded("a write") {
                    try await repository.record(
                        dataTestTrip(rider: rider, requestedAtMicros: 1_767_225_700_000_000), idempotency: nil)
                }
                #expect(Self.isUnavailable(write))
                let ready = await Self.guarded("a health check") {
                    var connection = checked
                    return health.check(&connection)
                }
                #expect(ready.flatMap { try? $0.get() } == false)
            }

            await Self.eventually("a rider read") {
                _ = try await repository.trips(matching: Self.firstPage(rider))
            }
            await Self.eventually("a write") {
                _ = try await repository.record(
                    dataTestTrip(rider: rider, requestedAtMicros: 1_767_225_800_000_000), idempotency: nil)
            }
            await Self.eventually("a health check") {
                var connection: PostgresConnection?
                guard health.check(&connection) else {
                    throw PostgresError(kind: .connectionFailed, message: "the health check failed")
                }
            }
            let trips = try await repository.trips(matching: Self.firstPage(rider))
            #expect(trips.contains { $0.id == recorded.trip.id })
        }
    }

    @Test func aFullReadQueueRefusesAtOnceAndQueuedReadsExpireWhileTheServerIsFrozen() async throws {
        try await Self.withPrivateCluster(acquireTimeout: .seconds(1), maximumPipelineBatch: 1, maximumQueuedReads: 2) {
            cluster, pool in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            _ = try await repository.trips(matching: Self.firstPage(rider))

            try await cluster.whileFrozen {
                // One read in flight on the only pipelined connection, which cannot finish while the server is
                // frozen; two may wait; the rest are refused.
                let outcomes = await Self.guarded("ten concurrent reads") {
                    await withTaskGroup(of: (any Error)?.self) { group in
                        for _ in 0..<10 {
                            group.addTask {
                                do {
                                    _ = try await pool.read(
                                        RiderTripsPage(
                                            direction: .older, riderID: rider, from: .negativeInfinity, to: .infinity,
                                            keyRequestedAt: .infinity, keyID: Int64.max,
                                            statuses: TripStatements.statuses(nil), limit: 10))
                                    return nil
                                } catch {
                                    return error
                                }
                            }
                        }
                        return await group.reduce(into: [(any Error)?]()) { $0.append($1) }
                    }
                }
                // Every read fails: none can be answered by a frozen server.
                let errors = ((try? outcomes?.get()) ?? []).compactMap { $0 }
                #expect(errors.count == 10)
                let refused = errors.filter { ($0 as? PostgresPoolError) == .readQueueFull }.count
                let expired = errors.filter { ($0 as? PostgresPoolError) == .acquireTimeout }.count
                let givenUp = errors.filter { ($0 as? PostgresError)?.isConnectionProblem == true }.count
                #expect(refused >= 1)
                #expect(expired >= 1)
                #expect(givenUp >= 1)
                #expect(refused + expired + givenUp == 10)
            }

            await Self.eventually("a rider read") {
                _ = try await repository.trips(matching: Self.firstPage(rider))
            }
        }
    }

    /// The change listener's connection to a frozen server stays open, and the server's kernel still
    /// acknowledges keepalives: only the listener's probe notices that no notification can come, so the
    /// cache it guards is suspended; once the server answers again the listener listens again.
    @Test func theChangeListenerNoticesAFrozenServerAndListensAgainOnceItAnswers() async throws {
        let cluster = try await FreezableCluster.start()
        defer { cluster.remove() }
        let listens = Mutex(0)
        let drops = Mutex(0)
        let listener = PostgresChangeListener(
            connectionString: cluster.connectionString, pollInterval: .milliseconds(50),
            probeInterval: .milliseconds(500), logger: DataTestDatabase.logger,
            onListening: { listens.withLock { $0 += 1 } }, onDisconnected: { drops.withLock { $0 += 1 } },
            onChange: { _ in })
        let running = Task { try await listener.run() }
        defer { running.cancel() }
        await Self.eventually("listening") {
            guard listens.withLock({ $0 }) == 1 else { throw ListenerNotYet() }
        }
        try await cluster.freeze()
        await Self.eventually("noticing the frozen server") {
            guard drops.withLock({ $0 }) == 1 else { throw ListenerNotYet() }
        }
        try await cluster.thaw()
        await Self.eventually("listening again") {
            guard listens.withLock({ $0 }) == 2 else { throw ListenerNotYet() }
        }
        #expect(drops.withLock { $0 } == 1)
        running.cancel()
        _ = try? await running.value
    }

    private struct ListenerNotYet: Error {}
}
