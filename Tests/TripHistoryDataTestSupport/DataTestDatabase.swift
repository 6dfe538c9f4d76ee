public import Foundation
public import Logging
import Testing
public import Tracing
public import TripHistoryData
public import TripHistoryDomain

/// Shared setup of the tests on a real PostgreSQL (data and integration targets; one gate for both, since
/// every test target runs in one process): the database from `DATABASE_URL`, migrated once per
/// process, and a gate that lets the server-restart test run alone.
public enum DataTestDatabase {
    public struct MissingDatabaseURL: Error, CustomStringConvertible {
        public var description: String {
            "DATABASE_URL is not set: the data integration tests need a PostgreSQL database (scripts/test sets it)"
        }
    }

    public static let migrationsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("migrations")

    public static let logger = Logger(label: "trip-history.data-tests")

    /// The connection string, or a recorded failure (never a skip) when it is missing.
    public static func connectionString() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty else {
            Issue.record(Comment(rawValue: MissingDatabaseURL().description))
            throw MissingDatabaseURL()
        }
        return url
    }

    /// A connection string whose sessions use only `schema` (for tests that need a fresh schema).
    public static func connectionString(searchPath schema: String) throws -> String {
        let base = try connectionString()
        if base.hasPrefix("postgres://") || base.hasPrefix("postgresql://") {
            return base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
        }
        return base + " options='-csearch_path=\(schema)'"
    }

    /// A fresh pool on the migrated database, running; the caller shuts it down.
    public static func makePool(
        size: Int = 4, acquireTimeout: Duration = .seconds(2), statementTimeout: Duration = .seconds(5),
        pipelinedConnections: Int = 2, maximumWaiters: Int = 64, tracer: (any Tracer)? = nil
    ) async throws -> PostgresConnectionPool {
        let configuration = PostgresConnectionPool.Configuration(
            connectionString: try connectionString(), size: size, acquireTimeout: acquireTimeout,
            statementTimeout: statementTimeout, pipelinedConnections: pipelinedConnections,
            maximumWaiters: maximumWaiters
        )
        try await Migrator.shared.migrateOnce(connectionString: configuration.connectionString)
        return PostgresConnectionPool(configuration: configuration, logger: logger, tracer: tracer).running()
    }

    /// Runs `body` with a migrated pool, sharing the database with other tests (not with a restart).
    public static func withPool<T>(
        size: Int = 4, acquireTimeout: Duration = .seconds(2), statementTimeout: Duration = .seconds(5),
        pipelinedConnections: Int = 2, maximumWaiters: Int = 64, tracer: (any Tracer)? = nil,
        _ body: (PostgresConnectionPool) async throws -> T
    ) async throws -> T {
        try await DataDatabaseGate.shared.withShared {
            let pool = try await makePool(
                size: size, acquireTimeout: acquireTimeout, statementTimeout: statementTimeout,
                pipelinedConnections: pipelinedConnections, maximumWaiters: maximumWaiters, tracer: tracer
            )
            do {
                let value = try await body(pool)
                await pool.shutdown()
                return value
            } catch {
                await pool.shutdown()
                throw error
            }
        }
    }

    /// Runs `body` with a connection string bound to a new, empty schema, dropped afterwards.
    public static func withFreshSchema(_ body: (String, PostgresConnectionPool) async throws -> Void) async throws {
        try await withPool { (pool: PostgresConnectionPool) async throws in
            let schema = "data_test_\(UInt32.random(in: 0...UInt32.max))"
            try await pool.withConnection { try $0.execute(unsafeSQL: "CREATE SCHEMA \(schema)") }
            do {
                try await body(try connectionString(searchPath: schema), pool)
            } catch {
                try? await pool.withConnection { try $0.execute(unsafeSQL: "DROP SCHEMA \(schema) CASCADE") }
                throw error
            }
            try await pool.withConnection { try $0.execute(unsafeSQL: "DROP SCHEMA \(schema) CASCADE") }
        }
    }

    /// Runs `body` with a pool of `size` on a new schema that the migrations have built, dropped afterwards:
    /// for tests whose statements reach every row of a table (a purge), which must not meet other tests' rows
    /// nor have a server under test purge theirs.
    public static func withMigratedFreshSchema<T>(
        size: Int = 4, _ body: (PostgresConnectionPool) async throws -> T
    ) async throws -> T {
        var value: T?
        try await withFreshSchema { (url: String, _: PostgresConnectionPool) async throws in
            let pool = PostgresConnectionPool(configuration: .init(connectionString: url, size: size), logger: logger)
                .running()
            do {
                _ = try await MigrationRunner(pool: pool, directory: migrationsDirectory, logger: logger).migrate()
                value = try await body(pool)
                await pool.shutdown()
            } catch {
                await pool.shutdown()
                throw error
            }
        }
        return value!
    }

    /// The command prefix that stops and starts the test server (`TRIP_HISTORY_TEST_PGCTL`, set by
    /// scripts/test), or a recorded failure (never a skip) when it is missing.
    public static func serverControl() -> String? {
        guard let pgctl = ProcessInfo.processInfo.environment["TRIP_HISTORY_TEST_PGCTL"], !pgctl.isEmpty else {
            Issue.record("TRIP_HISTORY_TEST_PGCTL is not set: this test stops PostgreSQL and cannot run without it")
            return nil
        }
        return pgctl
    }

    /// Runs `pgctl` with `arguments` (e.g. `-m fast -w stop`) and expects success.
    public static func controlServer(_ pgctl: String, _ arguments: String) async throws {
        let command = "\(pgctl) \(arguments)"
        let status = try await ChildProcess.bash(command)
        #expect(status == 0, "\(command)")
    }

    /// A rider id far above seeded ones, so parallel suites never see each other's trips.
    public static func randomRiderID() -> RiderID {
        RiderID(Int64.random(in: 1_000_000_000...9_000_000_000_000))!
    }

    /// Runs the migration runner once per process.
    actor Migrator {
        static let shared = Migrator()
        private var done = false

        func migrateOnce(connectionString: String) async throws {
            guard !done else { return }
            let runner = MigrationRunner(
                connectionString: connectionString, directory: migrationsDirectory, logger: logger)
            _ = try await runner.migrate()
            done = true
        }
    }
}

/// A trip for `rider` requested at `micros`, completed unless `status` says otherwise.
public func dataTestTrip(
    rider: RiderID, requestedAtMicros micros: Int64, status: TripStatus = .completed, address: String = "1 Test St",
    fare: Int64 = 1234, receipt: TripReceipt = .empty
) throws -> NewTrip {
    let requested = Timestamp.date(micros: micros)
    let started = Timestamp.date(micros: micros + 120_000_000)
    return try NewTrip.validated(
        riderID: rider, status: status, product: "UberX", city: "Paris", timeZone: "Europe/Paris",
        requestedAt: requested, startedAt: started,
        completedAt: status == .completed ? Timestamp.date(micros: micros + 900_000_123) : nil,
        pickup: Place(latitude: 48.856613, longitude: 2.352222, address: address),
        dropoff: Place(
            latitude: 48.8738, longitude: -0.1, address: "Café \"Le Procope\", 13 Rue de l'Ancienne\tComédie"),
        distanceMeters: 4200, durationSeconds: 900, fare: Money(amountMinor: fare, currency: CurrencyCode("EUR")!),
        receipt: receipt
    )
}

/// Runs `read` for a test statement's `decodeRow`: a `PostgresError` passes through, any other error becomes
/// one (tests write their row readers as plain throwing closures).
public func asPostgresError<T>(_ read: () throws -> T) throws(PostgresError) -> T {
    do {
        return try read()
    } catch let error as PostgresError {
        throw error
    } catch {
        throw PostgresError(kind: .decoding, message: "\(error)")
    }
}
