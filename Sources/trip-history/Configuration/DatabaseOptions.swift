import ArgumentParser
import Foundation

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

    private static func integer(_ text: String) throws -> Int {
        guard let value = Int(text) else { throw ValidationError("'\(text)' is not an integer.") }
        return value
    }
}
