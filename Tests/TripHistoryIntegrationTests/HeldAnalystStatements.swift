import Foundation
import Testing
import TripHistoryData
import TripHistoryDataTestSupport

/// Makes the analyst statements slow on purpose and deterministically: connections opened with
/// `connectionString` see, in a schema of their own, a view `trips` over the real table that waits for an
/// advisory lock the test holds while `hold()` is in force. The real repository's real statements run
/// unchanged; they only cannot finish until `release()`.
final class HeldAnalystStatements: Sendable {
    /// The database with the gated view first in the search path.
    let connectionString: String
    private let schema: String
    private let key: Int64
    /// One connection, so the session lock is taken and given back on the same one.
    private let control: PostgresConnectionPool

    private init(connectionString: String, schema: String, key: Int64, control: PostgresConnectionPool) {
        self.connectionString = connectionString
        self.schema = schema
        self.key = key
        self.control = control
    }

    /// Runs `body` with the schema in place, and drops it (releasing the lock) afterwards.
    static func with<T>(_ body: (HeldAnalystStatements) async throws -> T) async throws -> T {
        let schema = "held_\(UInt32.random(in: 0...UInt32.max))"
        let key = Int64.random(in: 1...Int64(Int32.max))
        let control = try await DataTestDatabase.makePool(size: 1)
        let held = HeldAnalystStatements(
            connectionString: try DataTestDatabase.connectionString(searchPath: "\(schema),public"), schema: schema,
            key: key, control: control)
        do {
            // Volatile, so it runs for every row the statement reads (tests make sure there is one).
            try await control.withConnection { connection in
                try connection.execute(
                    unsafeSQL: """
                        CREATE SCHEMA \(schema);
                        CREATE FUNCTION \(schema).pass() RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
                        BEGIN PERFORM pg_advisory_xact_lock_shared(\(key)); RETURN true; END $$;
                        CREATE VIEW \(schema).trips AS SELECT * FROM public.trips WHERE \(schema).pass();
                        """)
            }
            let value = try await body(held)
            await held.cleanUp()
            return value
        } catch {
            await held.cleanUp()
            throw error
        }
    }

    /// A pool on the gated database, as the composition root builds the analyst pool; the caller shuts it down.
    func makePool(size: Int, maximumWaiters: Int, acquireTimeout: Duration = .seconds(600)) -> PostgresConnectionPool {
        PostgresConnectionPool(
            configuration: .init(
                connectionString: connectionString, size: size, acquireTimeout: acquireTimeout,
                statementTimeout: .seconds(600), pipelinedConnections: 1, maximumWaiters: maximumWaiters),
            logger: DataTestDatabase.logger
        ).running()
    }

    /// From now on gated statements wait.
    func hold() async throws {
        let key = self.key
        try await control.withConnection { _ = try $0.query("SELECT pg_advisory_lock(\(key))") }
    }

    /// Lets every waiting and later gated statement through.
    func release() async throws {
        let key = self.key
        try await control.withConnection { _ = try $0.query("SELECT pg_advisory_unlock(\(key))") }
    }

    /// Returns once `count` statements wait at the gate.
    func waitUntilWaiting(_ count: Int) async throws {
        let (key, control) = (self.key, self.control)
        try await poolTestEventually("\(count) statements wait at the gate") {
            let waiting = try await control.withConnection { connection in
                try connection.query(
                    """
                    SELECT count(*) FROM pg_locks
                    WHERE locktype = 'advisory' AND NOT granted AND classid = 0 AND objid::bigint = \(key)
                    """
                ).int64(0, 0)
            }
            return (waiting ?? 0) >= count
        }
    }

    private func cleanUp() async {
        let schema = self.schema
        try? await control.withConnection { connection in
            try connection.execute(unsafeSQL: "SELECT pg_advisory_unlock_all(); DROP SCHEMA \(schema) CASCADE")
        }
        await control.shutdown()
    }
}

/// Polls `condition` until it holds; records a failure if it does not within a minute (a bound for a hung
/// test, not a measurement).
func poolTestEventually(_ what: String, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    Issue.record("never: \(what)")
}
