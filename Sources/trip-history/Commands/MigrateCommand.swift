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
        let applied = try await withDatabase(settings, label: "trip-history.migrate") { pool, logger in
            try await MigrationRunner(
                pool: pool, source: ServiceConfiguration.migrationSource(settings), logger: logger
            ).migrate()
        }
        print(applied.isEmpty ? "Schema is up to date." : "Applied: \(applied.joined(separator: ", "))")
    }
}
