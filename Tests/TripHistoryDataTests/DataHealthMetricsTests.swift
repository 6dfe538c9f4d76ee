import Metrics
import MetricsTestKit
import Testing
import TripHistoryDataTestSupport

@testable import TripHistoryData

/// The readiness verdicts as metrics: `trip_history_ready` follows the last check, and
/// `trip_history_readiness_changes_total` counts the verdicts that differed from the one before, which is what
/// the readiness-flapping alert in `deploy/prometheus/rules.yml` reads.
@Suite struct DataHealthMetricsTests {
    @Test func readinessAndItsChangesAreRecorded() async throws {
        try await DataTestDatabase.withFreshSchema { (url: String, _: PostgresConnectionPool) async throws in
            let metrics = TestMetrics()
            let health = try DatabaseHealthMonitor(
                connectionString: url, migrationsDirectory: DataTestDatabase.migrationsDirectory,
                metricsFactory: metrics)
            let ready = try metrics.expectGauge("trip_history_ready")
            let changes = try metrics.expectCounter("trip_history_readiness_changes_total")
            #expect(ready.lastValue == 0, "unready until checked")
            #expect(changes.totalValue == 0)

            var connection: PostgresConnection?
            #expect(health.check(&connection) == false, "the migrations are pending")
            #expect(ready.lastValue == 0)
            #expect(changes.totalValue == 0, "a first verdict is not a change")

            let runner = MigrationRunner(
                connectionString: url, directory: DataTestDatabase.migrationsDirectory, logger: DataTestDatabase.logger)
            _ = try await runner.migrate()
            #expect(health.check(&connection))
            #expect(ready.lastValue == 1)
            #expect(changes.totalValue == 1)
            #expect(health.check(&connection))
            #expect(changes.totalValue == 1, "the same verdict again is no change")

            // The schema's own pool: the one `withFreshSchema` lends works in the default schema.
            let scoped = PostgresConnectionPool(configuration: .init(connectionString: url, size: 1))
            try await scoped.withConnection { connection in
                _ = try connection.query(
                    "INSERT INTO schema_migrations (version, name, checksum) VALUES (0, 'elsewhere', 'x')")
            }
            await scoped.shutdown()
            #expect(health.check(&connection) == false, "a migration of another line is applied")
            #expect(ready.lastValue == 0)
            #expect(changes.totalValue == 2)
        }
    }
}
