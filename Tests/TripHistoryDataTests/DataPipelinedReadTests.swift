import Foundation
import Testing
import TripHistoryData
import TripHistoryDataTestSupport

/// Reads over the pool's pipelined connections (`PostgresConnectionPool.read`), on the real server: many
/// callers at once, a failing statement among good ones, a statement timeout, a connection the server
/// killed, and shutdown.
@Suite struct DataPipelinedReadTests {
    /// The value doubled, and the backend that answered.
    private struct Double: PostgresPreparedStatement {
        static let name = "test_pipeline_double_v1"
        static let sql = "SELECT $1::bigint * 2, pg_backend_pid()"

        let value: String

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(value)
            return bindings
        }

        func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> (value: Int64?, backend: Int64?) {
            (try rows.int64(row, 0), try rows.int64(row, 1))
        }
    }

    private struct Sleep: PostgresPreparedStatement {
        typealias Row = Void
        static let name = "test_pipeline_sleep_v1"
        static let sql = "SELECT pg_sleep($1::float8)"

        let seconds: Swift.Double

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(seconds)
            return bindings
        }
    }

    /// Waits for the advisory lock `key` (shared, released with its implicit transaction).
    private struct WaitForLock: PostgresPreparedStatement {
        typealias Row = Void
        static let name = "test_pipeline_wait_for_lock_v1"
        static let sql = "SELECT pg_advisory_xact_lock_shared($1::bigint)"

        let key: Int64

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(key)
            return bindings
        }
    }

    private static func double(
        _ value: String, on pool: PostgresConnectionPool
    ) async throws -> (value: Int64?, backend: Int64?) {
        try #require(try await pool.readFirst(Double(value: value)))
    }

    @Test func concurrentReadsEachGetTheirOwnRowsOverTheSharedConnections() async throws {
        try await DataTestDatabase.withPool(pipelinedConnections: 2) { (pool: PostgresConnectionPool) async throws in
            let answers = try await withThrowingTaskGroup(of: (Int64, Int64?, Int64?).self) { group in
                for value in Int64(1)...400 {
                    group.addTask {
                        let (doubled, backend) = try await Self.double(String(value), on: pool)
                        return (value, doubled, backend)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.count == 400)
            for (value, doubled, _) in answers {
                #expect(doubled == value * 2, "read \(value) got another caller's row")
            }
            // 400 reads, and no more backends than pipelined connections served them.
            #expect(Set(answers.compactMap(\.2)).count <= 2)
            #expect(pool.counts.open == 0, "no lent connection was used")
        }
    }

    @Test func aPoolWithoutPipelinedConnectionsReadsOnALentOne() async throws {
        // Eight reads share two lent connections; the wait for one is generous, since the full suite loads the server.
        try await DataTestDatabase.withPool(size: 2, acquireTimeout: .seconds(20), pipelinedConnections: 0) {
            (pool: PostgresConnectionPool) in
            let answers = try await withThrowingTaskGroup(of: (Int64, Int64?).self) { group in
                for value in Int64(1)...8 {
                    group.addTask { (value, try await Self.double(String(value), on: pool).value) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.count == 8)
            for (value, doubled) in answers { #expect(doubled == value * 2) }
            #expect(pool.counts.open > 0, "the reads went to lent connections")
        }
    }

    @Test func aFailingStatementFailsAloneAndItsNeighboursSucceed() async throws {
        try await DataTestDatabase.withPool(pipelinedConnections: 1) { (pool: PostgresConnectionPool) async throws in
            // One connection, so reads queued together go out in the same pipeline.
            let outcomes = await withTaskGroup(of: (Int, Result<Int64?, any Error>).self) { group in
                for index in 0..<60 {
                    group.addTask {
                        let text = index % 3 == 0 ? "not a number" : String(index)
                        do {
                            return (index, .success(try await Self.double(text, on: pool).value))
                        } catch {
                            return (index, .failure(error))
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.count == 60)
            for (index, outcome) in outcomes {
                switch outcome {
                case .success(let doubled):
                    #expect(index % 3 != 0)
                    #expect(doubled == Int64(index) * 2)
                case .failure(let error):
                    #expect(index % 3 == 0, "read \(index) failed: \(error)")
                    let postgres = error as? PostgresError
                    #expect(postgres?.sqlState == "22P02", "invalid input syntax, reported for this read only")
                    #expect(postgres?.isConnectionProblem == false)
                }
            }
            #expect(try await Self.double("21", on: pool).value == 42)
        }
    }

    @Test func aStatementTimeoutFailsThatReadOnly() async throws {
        try await DataTestDatabase.withPool(statementTimeout: .milliseconds(100), pipelinedConnections: 1) {
            (pool: PostgresConnectionPool) async throws in
            let slow = Task { try await pool.read(Sleep(seconds: 2)) }
            let fast = Task { try await Self.double("5", on: pool).value }
            await #expect { try await slow.value } throws: { ($0 as? PostgresError)?.isStatementTimeout == true }
            #expect(try await fast.value == 10)
            #expect(try await Self.double("6", on: pool).value == 12)
        }
    }

    @Test func aReadWaitingLongerThanTheAcquireTimeoutFailsWithATypedError() async throws {
        // The blocked read's statement timeout is far beyond the test's steps: on a loaded machine they took
        // longer than the default 5 s, and the read then failed on its own timeout instead of completing.
        try await DataTestDatabase.withPool(
            acquireTimeout: .milliseconds(200), statementTimeout: .seconds(120), pipelinedConnections: 1
        ) { (pool: PostgresConnectionPool) async throws in
            // The only pipelined connection waits for a lock this test holds, so a read queued behind it waits
            // too long however slowly the machine runs. The read is queued only once that connection's backend
            // is seen waiting, so it cannot join the blocked read's batch.
            let backend = try #require(try await Self.double("1", on: pool).backend)
            let key = Int64.random(in: 1...Int64.max)
            let holder = try PostgresConnection(connectionString: try DataTestDatabase.connectionString())
            try holder.query("SELECT pg_advisory_lock(\(key))")
            let blocked = Task { try await pool.read(WaitForLock(key: key)) }
            do {
                try await Self.waitUntil(pool, backend: backend, "wait_event_type = 'Lock'")
                await #expect(throws: PostgresPoolError.acquireTimeout) { try await Self.double("7", on: pool) }
            } catch {
                try holder.query("SELECT pg_advisory_unlock(\(key))")
                throw error
            }
            try holder.query("SELECT pg_advisory_unlock(\(key))")
            try await blocked.value
            #expect(try await Self.double("7", on: pool).value == 14)
        }
    }

    @Test func aConnectionTheServerKilledIsReplaced() async throws {
        try await DataTestDatabase.withPool(pipelinedConnections: 1) { (pool: PostgresConnectionPool) async throws in
            let first = try #require(try await Self.double("1", on: pool).backend)
            let killed = try await pool.withConnection { connection in
                try connection.query("SELECT pg_terminate_backend(\(first))").bool(0, 0)
            }
            #expect(killed == true)
            // A read may still be sent on the dead connection before the client notices; then it fails with a
            // connection error, and a later one runs on a new connection.
            var answer: (value: Int64?, backend: Int64?)?
            for _ in 0..<10 where answer == nil {
                do {
                    answer = try await Self.double("4", on: pool)
                } catch let error as PostgresError {
                    #expect(error.isConnectionProblem, "\(error)")
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            #expect(answer?.value == 8)
            #expect(answer?.backend != first)
        }
    }

    @Test func readsAfterShutdownFailWithATypedError() async throws {
        let pool = try await DataTestDatabase.makePool(pipelinedConnections: 2)
        #expect(try await Self.double("3", on: pool).value == 6)
        await pool.shutdown()
        await #expect(throws: PostgresPoolError.shutdown) { try await Self.double("3", on: pool) }
    }

    /// Returns once `backend` is in the state `condition` describes (SQL over `pg_stat_activity`), polling
    /// through a lent connection (the pipelined one is the one observed); fails after thirty seconds.
    private static func waitUntil(_ pool: PostgresConnectionPool, backend: Int64, _ condition: String) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let reached = try await pool.withConnection { connection in
                try connection.query(
                    "SELECT count(*) > 0 FROM pg_stat_activity WHERE pid = \(backend) AND \(unsafeSQL: condition)"
                ).bool(0, 0)
            }
            if reached == true { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("the pipelined connection never reached \(condition)")
    }
}
