/// Readiness of the database for serving: reachable and with every migration applied.
public struct DatabaseHealth: Sendable {
    private let pool: PostgresConnectionPool
    private let migrations: MigrationRunner

    public init(pool: PostgresConnectionPool, migrations: MigrationRunner) {
        self.pool = pool
        self.migrations = migrations
    }

    /// True when `SELECT 1` succeeds and the schema is current. Never throws: any failure is "not ready".
    public func isReady() async -> Bool {
        do {
            let one = try await pool.withConnection { connection in
                try connection.query("SELECT 1").int64(0, 0)
            }
            guard one == 1 else { return false }
            return try await migrations.status() == .current
        } catch {
            return false
        }
    }
}
