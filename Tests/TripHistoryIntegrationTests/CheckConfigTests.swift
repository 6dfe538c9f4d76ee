import Foundation
import Testing
import TripHistoryDataTestSupport
import TripHistoryTestSupport

/// `trip-history --version` and `serve --check-config`, run as an operator runs them: the built binary with
/// only the settings given here, no database needed.
@Suite struct CheckConfigTests {
    static let secret = String(repeating: "5e", count: 32)

    /// Runs the binary with exactly `environment` (plus PATH) and returns its exit status and output.
    static func run(
        _ arguments: [String], environment: [String: String]
    ) async throws -> (status: Int32, output: String) {
        let result = try await ProcessOutput.run(
            try ServeBinaryTests.binary(), arguments, environment: environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
        )
        return (result.status, result.output)
    }

    @Test func theVersionIsTheAPIsVersion() async throws {
        let version = try OpenAPIDocument.load().root["info"]?["version"]?.stringValue
        let (status, output) = try await Self.run(["--version"], environment: [:])
        #expect(status == 0)
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == version)
    }

    @Test func checkConfigPrintsTheResolvedSettingsWithoutAnySecret() async throws {
        let (status, output) = try await Self.run(
            [
                "serve", "--check-config", "--port", "9123", "--trusted-proxies", "10.0.0.0/8", "--trusted-forwarders",
                "10.1.0.0/16,fd00::/8", "--forwarded-header", "forwarded",
            ],
            environment: [
                "DATABASE_URL": "postgresql://app:hunter2-writer@db.internal:5432/trips?password=hunter3-query",
                "DATABASE_READ_URL": "host=replica.internal password='hunter4 reader' dbname=trips",
                "TRIP_HISTORY_SECRET": Self.secret, "TRIP_HISTORY_PREVIOUS_SECRETS": String(repeating: "6f", count: 32),
                "TRIP_HISTORY_CACHE": "off",
            ])
        #expect(status == 0, "\(output)")
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.contains("listen: 127.0.0.1:9123"), "a flag: \(output)")
        #expect(lines.contains("trusted proxies: 10.0.0.0/8"))
        #expect(lines.contains("trusted forwarders: 10.1.0.0/16, fd00::/8; client read from Forwarded"), "\(output)")
        #expect(lines.contains("cache: off"), "an environment variable")
        #expect(lines.contains("database: postgresql://app:***@db.internal:5432/trips?password=***"))
        #expect(lines.contains("database reader: host=replica.internal password=*** dbname=trips"))
        #expect(lines.contains("secrets: the current one and 1 previous (values not shown)"))
        #expect(lines.last == "configuration: valid")
        for secret in ["hunter2", "hunter3", "hunter4", Self.secret, String(repeating: "6f", count: 32)] {
            #expect(!output.contains(secret), "\(secret) was printed")
        }
    }

    @Test func checkConfigRefusesAnInvalidSettingByName() async throws {
        let (status, output) = try await Self.run(
            ["serve", "--check-config"],
            environment: [
                "DATABASE_URL": "postgresql://db/trips", "TRIP_HISTORY_SECRET": Self.secret,
                "TRIP_HISTORY_TRUSTED_PROXIES": "not-an-address",
            ])
        #expect(status != 0)
        #expect(output.contains("TRIP_HISTORY_TRUSTED_PROXIES"), "\(output)")
        #expect(!output.contains("configuration: valid"))
    }

    @Test func deprecatedNamesStillWorkAndAreWarnedAbout() async throws {
        let (status, output) = try await Self.run(
            ["serve", "--check-config", "--pool-size", "3", "--cache-ttl=9"],
            environment: [
                "DATABASE_URL": "postgresql://db/trips", "TRIP_HISTORY_SECRET": Self.secret, "LOG_LEVEL": "debug",
            ])
        #expect(status == 0, "\(output)")
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.contains("warning: --pool-size is deprecated: use --db-pool-size."))
        #expect(lines.contains("warning: --cache-ttl is deprecated: use --cache-ttl-seconds."))
        #expect(lines.contains("warning: LOG_LEVEL is deprecated: use TRIP_HISTORY_LOG_LEVEL."))
        #expect(lines.contains { $0.hasPrefix("pools: writes 3 connections") }, "\(output)")
        #expect(lines.contains { $0.hasPrefix("cache: 33554432 bytes, entries live 9000 ms") }, "\(output)")
        #expect(lines.contains("logs: debug, text"))
    }

    @Test func theDatabaseTuningFlagsMigrateAndSeedNeverUsedAreStillAcceptedWithAWarning() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("seed-\(UUID().uuidString).copy")
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output) = try await Self.run(
            [
                "seed", "--riders", "1", "--trips-per-rider", "2", "--dump-copy-file", file.path, "--pool-size", "4",
                "--no-require-standby-copy",
            ], environment: [:])
        #expect(status == 0, "\(output)")
        #expect(output.contains("warning: --db-pool-size has no effect on seed."))
        #expect(output.contains("warning: --require-standby-copy has no effect on seed."))
        #expect(output.contains("Wrote 2 trips for 1 riders"), "\(output)")
    }

    @Test func theSecretCanComeFromAFileButNotFromBothPlaces() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trip-history-secret-\(UUID())")
        try Data((Self.secret + "\n").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let fromFile = try await Self.run(
            ["serve", "--check-config"],
            environment: ["DATABASE_URL": "postgresql://db/trips", "TRIP_HISTORY_SECRET_FILE": file.path])
        #expect(fromFile.status == 0, "\(fromFile.output)")
        #expect(!fromFile.output.contains(Self.secret))

        let both = try await Self.run(
            ["serve", "--check-config"],
            environment: [
                "DATABASE_URL": "postgresql://db/trips", "TRIP_HISTORY_SECRET_FILE": file.path,
                "TRIP_HISTORY_SECRET": Self.secret,
            ])
        #expect(both.status != 0)
        #expect(both.output.contains("not both"), "\(both.output)")

        // A short secret in the file is refused like a short one in the variable.
        try Data("short\n".utf8).write(to: file)
        let short = try await Self.run(
            ["serve", "--check-config"],
            environment: ["DATABASE_URL": "postgresql://db/trips", "TRIP_HISTORY_SECRET_FILE": file.path])
        #expect(short.status != 0)
    }

    /// `serve`'s flags come from the settings catalogue: its help lists each with its variable, and the forms
    /// a flag may take all set it.
    @Test func everySettingIsAServeFlagListedWithItsVariable() async throws {
        let (status, output) = try await Self.run(["serve", "--help"], environment: [:])
        #expect(status == 0, "\(output)")
        for name in [
            "--db-pool-size <value>", "$TRIP_HISTORY_DB_POOL_SIZE", "--no-cache", "$TRIP_HISTORY_CACHE (on or off)",
            "--previous-secrets-file <path>", "--recording-horizon-years <value>", "--pool-size <value>",
            "--database-url", "--secret-file",
        ] {
            #expect(output.contains(name), "\(name) is missing from serve --help")
        }
    }

    @Test func aFlagSetsItsSettingInEveryForm() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("previous-\(UUID().uuidString)")
        try Data((String(repeating: "7a", count: 32) + "\n").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output) = try await Self.run(
            [
                "serve", "--check-config", "--port=9124", "--no-cache", "--metrics", "--previous-secrets-file",
                file.path, "--cors-origins", "https://app.example",
            ],
            environment: [
                "DATABASE_URL": "postgresql://db/trips", "TRIP_HISTORY_SECRET": Self.secret,
                "TRIP_HISTORY_CACHE": "on", "TRIP_HISTORY_METRICS": "off",
            ])
        #expect(status == 0, "\(output)")
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.contains("listen: 127.0.0.1:9124"), "--name=value: \(output)")
        #expect(lines.contains("cache: off"), "--no-name wins over the variable: \(output)")
        #expect(lines.contains { $0.hasPrefix("metrics: ") && $0 != "metrics: off" }, "--name: \(output)")
        #expect(lines.contains("secrets: the current one and 1 previous (values not shown)"), "a file flag")
        #expect(lines.contains { $0.contains("https://app.example") }, "\(output)")
    }

    @Test func anUnknownFlagAMissingValueAndAStrayWordAreUsageErrorsNamingThem() async throws {
        let environment = ["DATABASE_URL": "postgresql://db/trips", "TRIP_HISTORY_SECRET": Self.secret]
        for (arguments, named) in [
            (["--db-pool-sise", "3"], "--db-pool-sise"), (["--db-pool-size"], "--db-pool-size"),
            (["--cache=on"], "--cache"), (["stray"], "stray"),
        ] {
            let (status, output) = try await Self.run(
                ["serve", "--check-config"] + arguments, environment: environment)
            #expect(status == 64, "\(arguments): \(output)")
            #expect(output.contains(named), "\(arguments): \(output)")
            #expect(!output.contains("configuration: valid"))
        }
        // A value is the next argument whatever it looks like; this one is then refused as a value.
        let (status, output) = try await Self.run(
            ["serve", "--check-config", "--db-pool-size", "-3"], environment: environment)
        #expect(status != 0 && output.contains("TRIP_HISTORY_DB_POOL_SIZE"), "\(output)")
    }
}
