public import Logging

extension PostgresConnectionPool {
    /// Runs `body` on a one-connection pool to `connectionString` and shuts the pool down after it, whether it
    /// returns or throws: the one way commands and tools that need no long-lived pool reach a database.
    public static func withOneConnection<Value>(
        to connectionString: String, statementTimeout: Duration = .seconds(5), logger: Logger,
        _ body: (PostgresConnectionPool) async throws -> Value
    ) async throws -> Value {
        let pool = PostgresConnectionPool(
            configuration: .init(connectionString: connectionString, size: 1, statementTimeout: statementTimeout),
            logger: logger)
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
