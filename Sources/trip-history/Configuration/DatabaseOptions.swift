import ArgumentParser
import Foundation
import TripHistoryData

/// Where the database is and how the service talks to it. Flags override the environment.
struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .customLong("database-url"),
        help: ArgumentHelp("libpq URI or conninfo string.", discussion: "Default: $DATABASE_URL.")
    )
    var databaseURL: String?

    @Option(
        name: .customLong("database-read-url"),
        help: ArgumentHelp(
            "libpq URI or conninfo string of a read replica (e.g. target_session_attrs=prefer-standby).",
            discussion:
                "Rider and analyst reads go there when it is safe for them. Default: $DATABASE_READ_URL, else none (every read goes to the writer)."
        )
    )
    var databaseReadURL: String?

    @Option(
        help:
            "Folder of NNNN_name.sql migrations to use instead of those built into the binary. Default: $TRIP_HISTORY_MIGRATIONS, else the built-in ones."
    )
    var migrations: String?

    @Option(
        help:
            "Database connections lent for writes and other multi-statement work (and their libpq threads). Default: $TRIP_HISTORY_DB_POOL_SIZE, else 8."
    )
    var poolSize: Int?

    @Option(
        help:
            "Callers that may wait for a busy write connection; more get 503 at once. Default: $TRIP_HISTORY_DB_POOL_MAX_WAITERS, else 64."
    )
    var poolMaxWaiters: Int?

    @Option(
        help:
            "Database connections of the analyst pool (lists, exports, stats), apart from the writes'. Default: $TRIP_HISTORY_DB_ANALYST_POOL_SIZE, else 2."
    )
    var analystPoolSize: Int?

    @Option(
        help:
            "Analyst requests that may wait for a busy analyst connection; more get 503 at once. Default: $TRIP_HISTORY_DB_ANALYST_POOL_MAX_WAITERS, else 8."
    )
    var analystPoolMaxWaiters: Int?

    @Option(
        help:
            "Database connections in pipeline mode that carry the rider list and detail reads, each with a thread of its own. Default: $TRIP_HISTORY_DB_PIPELINED_CONNECTIONS, else 2."
    )
    var pipelinedConnections: Int?

    @Option(
        help:
            "Milliseconds before PostgreSQL cancels a statement. Default: $TRIP_HISTORY_STATEMENT_TIMEOUT_MS, else 5000."
    )
    var statementTimeoutMs: Int?

    @Option(
        help:
            "Milliseconds past the statement timeout that the service still waits for PostgreSQL's answer to a statement before it cancels it, drops the connection and answers 503. Default: $TRIP_HISTORY_QUERY_GRACE_MS, else 1000."
    )
    var queryGraceMs: Int?

    @Option(
        help:
            "Most rider reads waiting for a pipelined connection; more are refused at once with 503. Default: $TRIP_HISTORY_DB_MAX_QUEUED_READS, else 1024."
    )
    var maxQueuedReads: Int?

    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Answer a write only once a streaming standby has flushed it (needs pg_read_all_stats).",
            discussion: "Default: $TRIP_HISTORY_REQUIRE_STANDBY_COPY (on or off), else off."
        )
    )
    var requireStandbyCopy: Bool?

    /// The connection string; a missing one is a usage error rather than a silent localhost default.
    func connectionString(environment: [String: String]) throws -> String {
        guard let url = databaseURL ?? environment["DATABASE_URL"], !url.isEmpty else {
            throw ValidationError("Set DATABASE_URL or pass --database-url.")
        }
        return url
    }

    /// The reader's connection string, or nil when none is configured (an empty one counts as none).
    func readConnectionString(environment: [String: String]) -> String? {
        guard let url = databaseReadURL ?? environment["DATABASE_READ_URL"], !url.isEmpty else { return nil }
        return url
    }

    /// The folder of `--migrations` or `TRIP_HISTORY_MIGRATIONS` when given, else the migrations built into the
    /// binary, so `migrate` works from any directory.
    func migrationSource(environment: [String: String]) -> MigrationSource {
        guard let folder = migrations ?? environment["TRIP_HISTORY_MIGRATIONS"], !folder.isEmpty else {
            return .embedded
        }
        return .directory(URL(fileURLWithPath: folder, isDirectory: true))
    }

    /// Whether a write is acknowledged only once a standby has flushed it.
    func requiresStandbyCopy(environment: [String: String]) throws -> Bool {
        if let requireStandbyCopy { return requireStandbyCopy }
        switch environment["TRIP_HISTORY_REQUIRE_STANDBY_COPY"]?.lowercased() {
        case nil, "", "off", "false", "0": return false
        case "on", "true", "1": return true
        default: throw ValidationError("TRIP_HISTORY_REQUIRE_STANDBY_COPY must be on or off.")
        }
    }

    func resolvedPoolSize(environment: [String: String]) throws -> Int {
        let size = try poolSize ?? environment["TRIP_HISTORY_DB_POOL_SIZE"].map(Self.integer) ?? 8
        guard (1...256).contains(size) else { throw ValidationError("The pool size must be 1 to 256.") }
        return size
    }

    /// The size and waiting bound of the pool that serves writes (and the background purge).
    func writePool(environment: [String: String]) throws -> PoolSettings {
        PoolSettings(
            size: try resolvedPoolSize(environment: environment),
            maximumWaiters: try Self.waiters(poolMaxWaiters, environment, "TRIP_HISTORY_DB_POOL_MAX_WAITERS", 64))
    }

    /// The size and waiting bound of the pool that serves the analyst API.
    func analystPool(environment: [String: String]) throws -> PoolSettings {
        let size = try analystPoolSize ?? environment["TRIP_HISTORY_DB_ANALYST_POOL_SIZE"].map(Self.integer) ?? 2
        guard (1...256).contains(size) else { throw ValidationError("The analyst pool size must be 1 to 256.") }
        return PoolSettings(
            size: size,
            maximumWaiters: try Self.waiters(
                analystPoolMaxWaiters, environment, "TRIP_HISTORY_DB_ANALYST_POOL_MAX_WAITERS", 8))
    }

    private static func waiters(
        _ flag: Int?, _ environment: [String: String], _ name: String, _ fallback: Int
    ) throws -> Int {
        let count = try flag ?? environment[name].map(Self.integer) ?? fallback
        guard (0...100_000).contains(count) else { throw ValidationError("\(name) (or its flag) must be 0 to 100000.") }
        return count
    }

    func resolvedPipelinedConnections(environment: [String: String]) throws -> Int {
        let count =
            try pipelinedConnections ?? environment["TRIP_HISTORY_DB_PIPELINED_CONNECTIONS"].map(Self.integer) ?? 2
        guard (1...64).contains(count) else { throw ValidationError("The pipelined connections must be 1 to 64.") }
        return count
    }

    func statementTimeout(environment: [String: String]) throws -> Duration {
        let milliseconds =
            try statementTimeoutMs ?? environment["TRIP_HISTORY_STATEMENT_TIMEOUT_MS"].map(Self.integer) ?? 5000
        guard milliseconds > 0 else { throw ValidationError("The statement timeout must be positive.") }
        return .milliseconds(milliseconds)
    }

    func queryGrace(environment: [String: String]) throws -> Duration {
        let milliseconds = try queryGraceMs ?? environment["TRIP_HISTORY_QUERY_GRACE_MS"].map(Self.integer) ?? 1000
        guard milliseconds > 0 else { throw ValidationError("The query grace must be positive.") }
        return .milliseconds(milliseconds)
    }

    func resolvedMaximumQueuedReads(environment: [String: String]) throws -> Int {
        let count = try maxQueuedReads ?? environment["TRIP_HISTORY_DB_MAX_QUEUED_READS"].map(Self.integer) ?? 1024
        guard (1...1_000_000).contains(count) else {
            throw ValidationError("The queued reads must be 1 to 1000000.")
        }
        return count
    }

    private static func integer(_ text: String) throws -> Int {
        guard let value = Int(text) else { throw ValidationError("'\(text)' is not an integer.") }
        return value
    }
}
