import ArgumentParser
import Foundation
import Logging
import TripHistoryApp
import TripHistoryData

/// `trip-history migrate`: brings the schema up to date.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Apply pending migrations, each in its own transaction."
    )

    @OptionGroup var database: DatabaseFlags
    @OptionGroup var ignored: IgnoredDatabaseFlags

    func run() async throws {
        ignored.warn("migrate")
        let settings = try database.given.settings(environment: ProcessInfo.processInfo.environment)
        let logger = Logger(label: "trip-history.migrate")
        let pool = PostgresConnectionPool(
            configuration: .init(
                connectionString: try usageErrors { try ServiceConfiguration.connectionString(settings) }, size: 1),
            logger: logger
        )
        let runner = MigrationRunner(
            pool: pool, source: ServiceConfiguration.migrationSource(settings), logger: logger
        )
        do {
            let applied = try await runner.migrate()
            print(applied.isEmpty ? "Schema is up to date." : "Applied: \(applied.joined(separator: ", "))")
            await pool.shutdown()
        } catch {
            await pool.shutdown()
            throw error
        }
    }
}
