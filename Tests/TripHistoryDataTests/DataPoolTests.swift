import Foundation
import Testing
import TripHistoryData
import TripHistoryDataTestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite struct DataPoolTests {
    @Test func exhaustedPoolTimesOutWithTypedError() async throws {
        try await DataTestDatabase.withPool(size: 1, acquireTimeout: .milliseconds(150)) {
            (pool: PostgresConnectionPool) async throws in
            let release = DispatchSemaphore(value: 0)
            let blocker = Task { try await pool.withConnection { _ in release.wait() } }
            try await Self.eventually { pool.counts.open == 1 && pool.counts.idle == 0 }
            // The blocker holds the only connection until released, so a wait of 150 ms can only time out.
            await #expect(throws: PostgresPoolError.acquireTimeout) {
                try await pool.withConnection { _ in 1 }
            }
            release.signal()
            try await blocker.value
            #expect(try await pool.withConnection { try $0.query("SELECT 2").int64(0, 0) } == 2)
            #expect(pool.counts.open == 1)
        }
    }

    /// With its connection lent and `maximumWaiters` callers waiting, the pool refuses the next caller at
    /// once with `overloaded` (the acquire timeout is far beyond the test, so only the bound can refuse it),
    /// and the waiter still gets the connection once it is back.
    @Test func aFullWaitingQueueRefusesTheNextCallerAtOnce() async throws {
        try await DataTestDatabase.withPool(size: 1, acquireTimeout: .seconds(600), maximumWaiters: 1) {
            (pool: PostgresConnectionPool) async throws in
            let release = DispatchSemaphore(value: 0)
            let holder = Task { try await pool.withConnection { _ in release.wait() } }
            let waiter = Task {
                try await Self.eventually { pool.counts.open == 1 && pool.counts.idle == 0 }
                return try await pool.withConnection { try $0.query("SELECT 5").int64(0, 0) }
            }
            try await Self.eventually { pool.waiting == 1 }
            await #expect(throws: PostgresPoolError.overloaded) { try await pool.withConnection { _ in 1 } }
            #expect(pool.waiting == 1, "the refused caller never queued")
            release.signal()
            try await holder.value
            #expect(try await waiter.value == 5)
            #expect(try await pool.withConnection { try $0.query("SELECT 6").int64(0, 0) } == 6)
        }
    }

    /// A pool with a target opens each new connection at the target's current string, for lent connections and
    /// pipelined reads alike: a moved partition's pool follows the map without being built again.
    @Test func aRetargetedPoolOpensItsNextConnectionsAtTheNewString() async throws {
        let target = PostgresConnectionTarget("host=127.0.0.1 port=1 dbname=nowhere connect_timeout=2")
        let pool = PostgresConnectionPool(
            configuration: .init(
                connectionString: "host=127.0.0.1 port=1 dbname=nowhere", size: 1, pipelinedConnections: 1,
                target: target))
        await #expect { try await pool.withConnection { _ in 1 } } throws: { error in
            (error as? PostgresError)?.kind == .connectionFailed
        }
        #expect(target.retarget(try DataTestDatabase.connectionString()))
        #expect(!target.retarget(try DataTestDatabase.connectionString()), "the same string again changes nothing")
        #expect(try await pool.withConnection { try $0.query("SELECT 7").int64(0, 0) } == 7)
        #expect(try await pool.readFirst(SelectEight()) == 8)
        await pool.shutdown()
    }

    /// `SELECT 8`, as a pipelined read.
    private struct SelectEight: PostgresPreparedStatement {
        static let name = "data_test_select_eight"
        static let sql = "SELECT 8::bigint"

        func makeBindings() -> PostgresBindings { PostgresBindings(capacity: 0) }

        func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Int64? { try rows.int64(row, 0) }
    }

    /// Polls `condition` until it holds; fails after a minute (a bound for a hung test, not a measurement).
    static func eventually(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("condition never held")
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// With an idle timeout, a running pool closes a connection left idle that long (its server session ends),
    /// and the next caller opens a new one.
    @Test func aConnectionIdleLongerThanTheIdleTimeoutIsClosed() async throws {
        try await DataTestDatabase.withPool { _ in
            let pool = PostgresConnectionPool(
                configuration: .init(
                    connectionString: try DataTestDatabase.connectionString(), size: 1, pipelinedConnections: 0,
                    idleTimeout: .milliseconds(200))
            ).running()
            let first = try #require(
                try await pool.withConnection { try $0.query("SELECT pg_backend_pid()").int64(0, 0) })
            try await Self.eventually { pool.counts.open == 0 }
            let second = try await pool.withConnection { try $0.query("SELECT pg_backend_pid()").int64(0, 0) }
            #expect(second != first)
            var sessions: Int64 = 1
            for _ in 0..<600 where sessions > 0 {
                sessions = try await pool.withConnection {
                    try $0.query("SELECT count(*) FROM pg_stat_activity WHERE pid = \(first)").int64(0, 0) ?? 0
                }
                if sessions > 0 { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(sessions == 0, "the closed connection's session ended")
            await pool.shutdown()
        }
    }

    @Test func statementTimeoutIsTypedAndKeepsTheConnection() async throws {
        try await DataTestDatabase.withPool(size: 1, statementTimeout: .milliseconds(100)) {
            (pool: PostgresConnectionPool) async throws in
            await #expect { try await pool.withConnection { _ = try $0.query("SELECT pg_sleep(2)") } } throws: {
                error in
                (error as? PostgresError)?.isStatementTimeout == true
            }
            #expect(try await pool.withConnection { try $0.query("SELECT 3").int64(0, 0) } == 3)
        }
    }

    /// A session whose server no longer accepts writes (here made read-only, as on a node demoted under it)
    /// is dropped, so the next write opens a new connection instead of failing on the same one forever.
    @Test func readOnlySessionIsDroppedAndTheNextConnectionWrites() async throws {
        try await DataTestDatabase.withPool(size: 1) { (pool: PostgresConnectionPool) async throws in
            let first = try await pool.withConnection { try $0.query("SELECT pg_backend_pid()").int64(0, 0) }
            try await pool.withConnection { try $0.execute(unsafeSQL: "SET default_transaction_read_only = on") }
            await #expect {
                try await pool.withConnection { try $0.execute(unsafeSQL: "CREATE TEMP TABLE read_only_probe (x int)") }
            } throws: { error in
                (error as? PostgresError)?.sqlState == "25006" && (error as? PostgresError)?.isConnectionProblem == true
            }
            #expect(pool.counts.open == 0)
            let second = try await pool.withConnection { connection in
                try connection.execute(unsafeSQL: "CREATE TEMP TABLE read_only_probe (x int)")
                return try connection.query("SELECT pg_backend_pid()").int64(0, 0)
            }
            #expect(second != first)
        }
    }

    /// A refused connection is a typed failure that frees its slot (how fast is measured, not asserted here).
    @Test func unreachableServerIsATypedFailure() async throws {
        let pool = PostgresConnectionPool(
            configuration: .init(connectionString: "postgresql://nobody@127.0.0.1:1/none"))
        await #expect { try await pool.withConnection { _ in 1 } } throws: { error in
            (error as? PostgresError)?.kind == .connectionFailed
        }
        #expect(pool.counts.open == 0)
        await pool.shutdown()
        await #expect(throws: PostgresPoolError.shutdown) { try await pool.withConnection { _ in 1 } }
    }

    @Test func timestampTextRoundTripsExactly() async throws {
        try await DataTestDatabase.withPool { (pool: PostgresConnectionPool) async throws in
            let samples: [Int64] = [
                0, 1, -1, 1_767_225_600_123_456, 951_782_400_000_001, -62_135_596_800_000_000, 253_402_300_799_999_999,
            ]
            for micros in samples {
                let text = PostgresTimestamp.format(micros: micros)
                let back = try await pool.withConnection { connection in
                    try connection.query(
                        "SELECT \(text)::timestamptz, (extract(epoch from \(text)::timestamptz) * 1000000)::bigint"
                    )
                    .int64(0, 1)
                }
                let parsed = try await pool.withConnection {
                    try $0.query("SELECT \(text)::timestamptz").timestampMicros(0, 0)
                }
                #expect(back == micros, "\(text)")
                #expect(parsed == micros, "\(text)")
            }
        }
    }

    @Test func poolSurvivesAServerRestart() async throws {
        guard let pgctl = DataTestDatabase.serverControl() else { return }
        let pool = try await DataTestDatabase.makePool(size: 2)
        try await DataDatabaseGate.shared.withExclusive {
            #expect(try await pool.withConnection { try $0.query("SELECT 1").int64(0, 0) } == 1)
            try await DataTestDatabase.controlServer(pgctl, "-m fast -w restart")
            var answer: Int64? = nil
            // The first call may land on a connection the restart killed; the pool must replace it by itself.
            for _ in 0..<10 where answer == nil {
                answer = try? await pool.withConnection { try $0.query("SELECT 1").int64(0, 0) }
                if answer == nil { try await Task.sleep(for: .milliseconds(300)) }
            }
            #expect(answer == 1)
        }
        await pool.shutdown()
    }
}
