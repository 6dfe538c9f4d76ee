import Foundation
import Testing
import TripHistoryDataTestSupport

@testable import TripHistoryData

@Suite struct DataMigrationTests {
    /// Every migration file's name, in order; the first two are the data layer's own.
    private static var all: [String] {
        let files =
            (try? FileManager.default.contentsOfDirectory(atPath: DataTestDatabase.migrationsDirectory.path)) ?? []
        return files.filter { $0.hasSuffix(".sql") }.map { String($0.dropLast(4)) }.sorted()
    }

    @Test func freshSchemaIsPendingThenMigratesOnce() async throws {
        try await DataTestDatabase.withFreshSchema { (url: String, _: PostgresConnectionPool) async throws in
            let runner = MigrationRunner(
                connectionString: url, directory: DataTestDatabase.migrationsDirectory, logger: DataTestDatabase.logger)
            #expect(Array(Self.all.prefix(2)) == ["0001_create_trips", "0002_create_idempotency_keys"])
            #expect(try await runner.status() == .pending(Self.all))
            #expect(try await runner.migrate() == Self.all)
            #expect(try await runner.migrate() == [])
            #expect(try await runner.status() == .current)
        }
    }

    /// The migrations built into the binary are the folder's, file for file and byte for byte, so a build
    /// never migrates to another schema than the checkout it came from.
    @Test func theEmbeddedMigrationsAreTheFolders() throws {
        let folder = DataTestDatabase.migrationsDirectory
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }
        #expect(EmbeddedMigrations.files.map(\.name).sorted() == names.sorted())
        for (name, bytes) in EmbeddedMigrations.files {
            let onDisk = try #require(FileManager.default.contents(atPath: folder.appendingPathComponent(name).path))
            #expect(bytes == Array(onDisk), "\(name)")
        }
        #expect(try MigrationFile.load(from: .embedded) == MigrationFile.load(from: .directory(folder)))
    }

    /// With no folder configured, the built-in migrations (which read no file) bring a fresh schema up to date,
    /// and the folder then finds nothing to do; the health monitor agrees.
    @Test func theEmbeddedMigrationsMigrateWithNoFolder() async throws {
        try await DataTestDatabase.withFreshSchema { (url: String, _: PostgresConnectionPool) async throws in
            let runner = MigrationRunner(connectionString: url, source: .embedded, logger: DataTestDatabase.logger)
            #expect(try await runner.status() == .pending(Self.all))
            #expect(try await runner.migrate() == Self.all)
            let folder = MigrationRunner(
                connectionString: url, directory: DataTestDatabase.migrationsDirectory, logger: DataTestDatabase.logger)
            #expect(try await folder.status() == .current)
            let health = try DatabaseHealthMonitor(connectionString: url, migrations: .embedded)
            var connection: PostgresConnection?
            #expect(health.check(&connection) == true)
        }
    }

    @Test func concurrentRunnersApplyEachMigrationOnce() async throws {
        try await DataTestDatabase.withFreshSchema { (url: String, _: PostgresConnectionPool) async throws in
            let runner = MigrationRunner(
                connectionString: url, directory: DataTestDatabase.migrationsDirectory, logger: DataTestDatabase.logger)
            async let first = runner.migrate()
            async let second = runner.migrate()
            let applied = try await [first, second]
            #expect(applied.flatMap { $0 }.sorted() == Self.all)
        }
    }

    @Test func editedOrUnknownMigrationsAreRefused() async throws {
        try await DataTestDatabase.withFreshSchema { (url: String, pool: PostgresConnectionPool) async throws in
            let original = MigrationRunner(
                connectionString: url, directory: DataTestDatabase.migrationsDirectory, logger: DataTestDatabase.logger)
            _ = try await original.migrate()

            let edited = FileManager.default.temporaryDirectory.appendingPathComponent("data-test-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: edited, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: edited) }
            for name in Self.all {
                let source = DataTestDatabase.migrationsDirectory.appendingPathComponent(name + ".sql")
                var text = try String(contentsOf: source, encoding: .utf8)
                if name == Self.all[0] { text += "\n-- edited after being applied\n" }
                try text.write(to: edited.appendingPathComponent(name + ".sql"), atomically: true, encoding: .utf8)
            }
            let runner = MigrationRunner(connectionString: url, directory: edited, logger: DataTestDatabase.logger)
            #expect(try await runner.status() == .edited(Self.all[0]))
            await #expect(throws: MigrationError.edited(Self.all[0])) { try await runner.migrate() }

            let schemaRunner = MigrationRunner(
                connectionString: url, directory: DataTestDatabase.migrationsDirectory, logger: DataTestDatabase.logger)
            let scoped = PostgresConnectionPool(configuration: .init(connectionString: url, size: 1))
            let health = try DatabaseHealthMonitor(
                connectionString: url, migrationsDirectory: DataTestDatabase.migrationsDirectory)
            var connection: PostgresConnection?
            // A version older than this build's newest that it has no file for is another line of migrations.
            try await scoped.withConnection { connection in
                _ = try connection.query(
                    "INSERT INTO schema_migrations (version, name, checksum) VALUES (0, 'elsewhere', 'x')")
            }
            #expect(try await schemaRunner.status() == .unknownApplied(0))
            await #expect(throws: MigrationError.unknownApplied(0)) { try await schemaRunner.migrate() }
            #expect(health.check(&connection) == false)
            #expect(health.isReady == false)
            try await scoped.withConnection { connection in
                _ = try connection.query("DELETE FROM schema_migrations WHERE version = 0")
            }
            await scoped.shutdown()
        }
    }

    /// A later build migrated the database ahead of this one, as a rolling deploy's migration Job does before
    /// the last instance of the previous release stops: this build's schema is all there, so it stays ready
    /// and its `migrate` has nothing to do. A file of its own still pending beside the newer version is a
    /// mismatch: applying it after a later migration could undo what that one relies on.
    @Test func aDatabaseAheadOfThisBuildIsServedAndABuildBehindWithAGapIsRefused() async throws {
        try await DataTestDatabase.withFreshSchema { (url: String, _: PostgresConnectionPool) async throws in
            let runner = MigrationRunner(
                connectionString: url, directory: DataTestDatabase.migrationsDirectory, logger: DataTestDatabase.logger)
            _ = try await runner.migrate()
            let scoped = PostgresConnectionPool(configuration: .init(connectionString: url, size: 1))
            try await scoped.withConnection { connection in
                _ = try connection.query(
                    "INSERT INTO schema_migrations (version, name, checksum) VALUES (9999, 'future', 'x')")
            }
            #expect(try await runner.status() == .ahead([9999]))
            #expect(try await runner.migrate().isEmpty)
            let health = try DatabaseHealthMonitor(
                connectionString: url, migrationsDirectory: DataTestDatabase.migrationsDirectory)
            var connection: PostgresConnection?
            #expect(health.check(&connection) == true)
            // This build's newest file not applied, yet a later version is: refused, and not ready.
            let newest = try #require(Self.all.last)
            let version = try #require(Int(newest.prefix { $0.isNumber }))
            try await scoped.withConnection { connection in
                _ = try connection.query("DELETE FROM schema_migrations WHERE version = \(version)")
            }
            await scoped.shutdown()
            #expect(try await runner.status() == .unknownApplied(9999))
            await #expect(throws: MigrationError.unknownApplied(9999)) { try await runner.migrate() }
            #expect(health.check(&connection) == false)
        }
    }

    @Test func healthIsReadyOnTheMigratedDatabaseAndNeedsNoConnectionOfThePool() async throws {
        try await DataTestDatabase.withPool(size: 1) { (pool: PostgresConnectionPool) async throws in
            let health = try DatabaseHealthMonitor(
                connectionString: try DataTestDatabase.connectionString(),
                migrationsDirectory: DataTestDatabase.migrationsDirectory, interval: .seconds(60))
            #expect(health.isReady == false, "nothing checked yet")
            // The pool's only connection is held for the whole check: readiness has a connection of its own.
            let ready = try await pool.withConnection { _ in
                var connection: PostgresConnection?
                return health.check(&connection) && health.check(&connection)
            }
            #expect(ready)
            #expect(health.isReady)
        }
    }

    @Test func healthIsNotReadyWhenTheDatabaseCannotBeReachedAndGoesStale() async throws {
        try await DataTestDatabase.withPool { _ in try await Self.unreachableAndStale() }
    }

    private static func unreachableAndStale() async throws {
        let health = try DatabaseHealthMonitor(
            connectionString: "postgresql://postgres@127.0.0.1:1/none?connect_timeout=1",
            migrationsDirectory: DataTestDatabase.migrationsDirectory, interval: .milliseconds(50))
        var connection: PostgresConnection?
        #expect(health.check(&connection) == false)
        #expect(connection == nil)
        #expect(health.isReady == false)
        // A verdict older than three intervals is not trusted either.
        let fresh = try DatabaseHealthMonitor(
            connectionString: try DataTestDatabase.connectionString(),
            migrationsDirectory: DataTestDatabase.migrationsDirectory, interval: .milliseconds(200))
        var live: PostgresConnection?
        #expect(fresh.check(&live))
        #expect(fresh.isReady)
        try await Task.sleep(for: .seconds(1))
        #expect(fresh.isReady == false, "a stale success is not readiness")
    }

    @Test func theMonitorChecksInTheBackgroundUntilShutdown() async throws {
        try await DataTestDatabase.withPool { _ in try await Self.checksInTheBackground() }
    }

    private static func checksInTheBackground() async throws {
        let health = try DatabaseHealthMonitor(
            connectionString: try DataTestDatabase.connectionString(),
            migrationsDirectory: DataTestDatabase.migrationsDirectory, interval: .milliseconds(50))
        let running = Task { try await health.run() }
        let deadline = ContinuousClock.now + .seconds(10)
        while !health.isReady, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(health.isReady)
        running.cancel()
        try await running.value
    }
}
