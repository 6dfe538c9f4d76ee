import ArgumentParser
import Foundation
import Logging
import TripHistoryAPI
import TripHistoryApp
import TripHistoryData

/// `trip-history seed`: writes deterministic demo or load-test trips.
struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Write realistic trips for riders K...K+N-1 with COPY, replacing those riders' trips.",
        discussion: """
            --distribution uniform gives every rider exactly --trips-per-rider trips; skewed makes it the mean of \
            a heavy-tailed count (many riders with a few trips, some with thousands). Progress goes to stderr. \
            Given the proxy database of the sharded topology, each rider's trips go to its partition.
            """
    )

    /// How per-rider counts are drawn.
    enum Distribution: String, ExpressibleByArgument, CaseIterable {
        case uniform
        case skewed
    }

    @Option(help: "Riders to seed.")
    var riders: Int

    @Option(help: "Id of the first seeded rider; riders get ids first-rider...first-rider+riders-1.")
    var firstRider: Int = 1

    @Option(help: "Trips per rider: exact with --distribution uniform, the mean with skewed.")
    var tripsPerRider: Int

    @Option(help: "uniform (every rider gets --trips-per-rider) or skewed (heavy-tailed, same mean).")
    var distribution: Distribution = .uniform

    @Option(help: "Seed of the generator: the same seed writes the same trips.")
    var seed: UInt64 = 1

    @Option(
        help: ArgumentHelp(
            "Write the rows in COPY text format to this file instead of loading them (no database needed).",
            discussion: "For comparing with psql: \\copy trips (<columns>) FROM 'PATH'; the command prints it."
        )
    )
    var dumpCopyFile: String?

    @Option(
        help: ArgumentHelp(
            "After seeding, write a JSON file for load tests: every seeded rider with a rider token and ids of their newest completed trips, and a service token.",
            discussion: "Needs the signing secret the server uses: $TRIP_HISTORY_SECRET, --secret or --secret-file.",
            valueName: "path"
        )
    )
    var writeFixtures: String?

    @Option(help: "Lifetime in seconds of the fixtures' tokens, at most 604800 (a week).")
    var fixturesTTL: Int = 86_400

    @OptionGroup var database: DatabaseFlags
    @OptionGroup var secret: SecretFlags
    @OptionGroup var ignored: IgnoredDatabaseFlags

    func validate() throws {
        guard riders > 0, tripsPerRider > 0 else {
            throw ValidationError("--riders and --trips-per-rider must be positive.")
        }
        guard firstRider > 0, firstRider <= Int.max - riders else {
            throw ValidationError("--first-rider must be positive.")
        }
        if writeFixtures != nil {
            guard dumpCopyFile == nil else {
                throw ValidationError("Pass --write-fixtures or --dump-copy-file, not both.")
            }
            let maximum = AccessTokens.Role.rider.maximumTimeToLive.components.seconds
            guard fixturesTTL > 0, fixturesTTL <= maximum else {
                throw ValidationError("--fixtures-ttl must be from 1 to \(maximum) seconds.")
            }
        }
    }

    private var riderRange: ClosedRange<Int> { firstRider...(firstRider + riders - 1) }

    private var seedDistribution: SeedDistribution {
        switch distribution {
        case .uniform: .uniform(tripsPerRider: tripsPerRider)
        case .skewed: .skewed(meanTripsPerRider: tripsPerRider)
        }
    }

    func run() async throws {
        ignored.warn("seed")
        let started = ContinuousClock.now
        if let path = dumpCopyFile {
            let written = try TripSeeder.writeCopyFile(
                path: path, riders: riderRange, distribution: seedDistribution, seed: seed
            )
            let seconds = Self.seconds(since: started)
            print("Wrote \(written) trips for \(riders) riders to \(path) in \(Self.format(seconds)) s.")
            print("Load them with: \\copy trips (\(TripSeeder.copyColumns)) FROM '\(path)'")
            return
        }

        var given = database.given
        given.add(secret.given)
        let settings = try given.settings(environment: ProcessInfo.processInfo.environment)
        // The secret and the file are checked before seeding, which can take long, rather than after it.
        var fixtures: (path: String, output: FileHandle, tokens: AccessTokens)?
        if let path = writeFixtures {
            let signingSecret = try usageErrors { try ServiceSecret.current(settings) }
            guard FileManager.default.createFile(atPath: path, contents: nil),
                let output = FileHandle(forWritingAtPath: path)
            else { throw ValidationError("Cannot write --write-fixtures at \(path).") }
            fixtures = (path, output, await AccessTokens(secret: signingSecret))
        }
        let total = seedDistribution.totalTrips(riders: riderRange, seed: seed)
        let reporter = ProgressReporter(total: total, started: started)
        do {
            try await withDatabase(settings, label: "trip-history.seed", statementTimeout: .seconds(3600)) {
                pool, logger in
                let written: Int
                if let partitions = try await PartitionedSchema(proxy: pool, source: .embedded, logger: logger)
                    .partitions()
                {
                    // The proxy of the sharded topology: each rider's trips go to the partition it is placed on.
                    guard fixtures == nil else {
                        throw ValidationError(
                            "--write-fixtures reads through the service's statements: not on a proxy yet.")
                    }
                    written = try await PartitionedSeeder(partitions: partitions, logger: logger).seed(
                        riders: riderRange, distribution: seedDistribution, seed: seed,
                        progress: { rows in reporter.report(rows) })
                } else {
                    written = try await TripSeeder(pool: pool, logger: logger).seed(
                        riders: riderRange, distribution: seedDistribution, seed: seed,
                        progress: { rows in reporter.report(rows) }
                    )
                }
                let seconds = Self.seconds(since: started)
                reporter.finish(written)
                let rate = seconds > 0 ? Int(Double(written) / seconds) : 0
                print("Seeded \(written) trips for \(riders) riders in \(Self.format(seconds)) s (\(rate) rows/s).")
                if let fixtures {
                    let listed = try await LoadTestFixtures(
                        tokens: fixtures.tokens, repository: PostgresTripRepository(pool: pool, logger: logger),
                        timeToLive: .seconds(fixturesTTL)
                    ).write(riders: riderRange, to: fixtures.output)
                    try fixtures.output.close()
                    print("Wrote fixtures for \(riders) riders and \(listed) of their trips to \(fixtures.path).")
                }
            }
        } catch {
            if let fixtures {
                try? fixtures.output.close()
                try? FileManager.default.removeItem(atPath: fixtures.path)
            }
            throw error
        }
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    static func format(_ seconds: Double) -> String { String(format: "%.1f", seconds) }
}

/// Writes `seeded R/T trips (P%, N rows/s)` to stderr at most a few times a second, from the pool's thread.
private final class ProgressReporter: @unchecked Sendable {
    private let total: Int
    private let started: ContinuousClock.Instant
    // Guarded by `lock`.
    private let lock = NSLock()
    private var lastReport: ContinuousClock.Instant?

    init(total: Int, started: ContinuousClock.Instant) {
        self.total = total
        self.started = started
    }

    func report(_ rows: Int) {
        let now = ContinuousClock.now
        let due = lock.withLock {
            guard lastReport.map({ now - $0 >= .milliseconds(250) }) ?? true else { return false }
            lastReport = now
            return true
        }
        if due { write(rows, newline: false) }
    }

    func finish(_ rows: Int) { write(rows, newline: true) }

    private func write(_ rows: Int, newline: Bool) {
        let seconds = SeedCommand.seconds(since: started)
        let percent = total > 0 ? 100 * rows / total : 100
        let rate = seconds > 0 ? Int(Double(rows) / seconds) : 0
        let line = "\rseeded \(rows)/\(total) trips (\(percent)%, \(rate) rows/s)" + (newline ? "\n" : "")
        FileHandle.standardError.write(Data(line.utf8))
    }
}
