import ArgumentParser
import Foundation

/// Where the database is and how the service talks to it. Flags override the environment.
struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .customLong("database-url"),
        help: ArgumentHelp("libpq URI or conninfo string.", discussion: "Default: $DATABASE_URL.")
    )
    var databaseURL: String?

    @Option(help: "Folder of NNNN_name.sql migrations. Default: $TRIP_HISTORY_MIGRATIONS, else ./migrations.")
    var migrations: String?

    @Option(
        help:
            "Database connections lent for writes, exports and other multi-statement work (and their libpq threads). Default: $TRIP_HISTORY_DB_POOL_SIZE, else 8."
    )
    var poolSize: Int?

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

    /// The connection string; a missing one is a usage error rather than a silent localhost default.
    func connectionString(environment: [String: String]) throws -> String {
        guard let url = databaseURL ?? environment["DATABASE_URL"], !url.isEmpty else {
            throw ValidationError("Set DATABASE_URL or pass --database-url.")
        }
        return url
    }

    func migrationsDirectory(environment: [String: String]) -> URL {
        URL(fileURLWithPath: migrations ?? environment["TRIP_HISTORY_MIGRATIONS"] ?? "migrations", isDirectory: true)
    }

    func resolvedPoolSize(environment: [String: String]) throws -> Int {
        let size = try poolSize ?? environment["TRIP_HISTORY_DB_POOL_SIZE"].map(Self.integer) ?? 8
        guard (1...256).contains(size) else { throw ValidationError("The pool size must be 1 to 256.") }
        return size
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
