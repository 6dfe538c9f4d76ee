import Logging
import TripHistoryApp
import TripHistoryData

/// Runs `body` on a one-connection pool to the database that `settings` name, logging as `label`, and shuts the
/// pool down after it, whether it returns or throws: the one way the commands other than `serve` open the
/// database. A connection string that cannot be used is a usage error, like a malformed flag.
func withDatabase<Value>(
    _ settings: SettingsReader, label: String, statementTimeout: Duration = .seconds(5),
    _ body: (PostgresConnectionPool, Logger) async throws -> Value
) async throws -> Value {
    let logger = Logger(label: label)
    return try await PostgresConnectionPool.withOneConnection(
        to: try usageErrors { try ServiceConfiguration.connectionString(settings) },
        statementTimeout: statementTimeout, logger: logger
    ) { pool in try await body(pool, logger) }
}
