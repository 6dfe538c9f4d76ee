import ArgumentParser
import Foundation
import Logging
import TripHistoryApp
import TripHistoryData

/// `trip-history migrate`: brings the schema up to date. On the proxy database of the sharded topology it migrates
/// every partition the proxy's cluster names, then the proxy itself (`PartitionedSchema`).
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply pending migrations, each in its own transaction.",
        discussion: """
            Given the proxy database of the sharded topology (one with the PL/Proxy cluster 'trips'), migrates \
            every partition the cluster names, installs the partition functions and numbers each partition's ids \
            by its place, then installs the proxy's functions. Running it again applies only what is new.
            """
    )

    @OptionGroup var database: DatabaseFlags
    @OptionGroup var ignored: IgnoredDatabaseFlags

    func run() async throws {
        ignored.warn("migrate")
        let settings = try database.given.settings(environment: ProcessInfo.processInfo.environment)
        let source = ServiceConfiguration.migrationSource(settings)
        let report = try await withDatabase(settings, label: "trip-history.migrate") { pool, logger in
            let topology = PartitionedSchema(proxy: pool, source: source, logger: logger)
            guard let partitions = try await topology.partitions() else {
                let applied = try await MigrationRunner(pool: pool, source: source, logger: logger).migrate()
                return applied.isEmpty ? "Schema is up to date." : "Applied: \(applied.joined(separator: ", "))"
            }
            let migrated = try await topology.migrate(partitions)
            let lines = migrated.map { partition in
                "p\(partition.partition): "
                    + (partition.applied.isEmpty ? "up to date" : partition.applied.joined(separator: ", "))
            }
            return (["Proxy of \(partitions.count) partitions; its functions installed."] + lines)
                .joined(separator: "\n")
        }
        print(report)
    }
}
