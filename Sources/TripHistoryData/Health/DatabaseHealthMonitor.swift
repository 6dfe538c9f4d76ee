public import Foundation
public import Logging
public import Metrics
import NIOConcurrencyHelpers
public import ServiceLifecycle
import Synchronization

/// Readiness of the database for serving, checked in the background: reachable, and with the migrations
/// this build knows applied and unedited.
///
/// Why in the background: a readiness probe must not take a connection the requests need, nor wait behind
/// them, nor hash the migration files each time; a flood of probes, or a pool exhausted by analyst queries,
/// would otherwise make every instance look unready at once. The monitor keeps one connection of its own
/// (with TCP keepalives, a TCP user timeout, and short statement and query timeouts), checks `SELECT 1` and the migration history every `interval`
/// against the files it read and hashed once, and `isReady` only reads the last answer.
///
/// Each verdict is also a metric: `trip_history_ready` (1 or 0, the last check's verdict) and
/// `trip_history_readiness_changes_total` (verdicts that differed from the one before), so a scraper sees an
/// instance flap between ready and unready even when each state lasts less than its scrape interval.
public final class DatabaseHealthMonitor: Service, Sendable {
    private let connectionString: String
    /// The migrations a ready database has applied; nil checks only that it answers (a sharded topology's proxy).
    private let files: [MigrationFile]?
    private let interval: Duration
    private let logger: Logger
    /// The last check's verdict and when it was made.
    private let last = Mutex<(ready: Bool, at: ContinuousClock.Instant)?>(nil)
    private let readyGauge: Gauge
    private let changes: Counter

    /// Reads the migration files of `migrations` once (none: the database only has to answer); throws when
    /// they cannot be read. Records its verdicts into `metricsFactory`.
    public init(
        connectionString: String, migrations: MigrationSource?, interval: Duration = .seconds(1),
        metricsFactory: any MetricsFactory = MetricsSystem.factory,
        logger: Logger = Logger(label: "trip-history.health")
    ) throws {
        self.connectionString = connectionString
        self.files = try migrations.map { try MigrationFile.load(from: $0) }
        self.interval = interval
        self.logger = logger
        readyGauge = Gauge(label: "trip_history_ready", factory: metricsFactory)
        changes = Counter(label: "trip_history_readiness_changes_total", factory: metricsFactory)
        // Unready until the first check, as `isReady` says.
        readyGauge.record(0)
    }

    /// Reads the migration files of the folder `migrationsDirectory` once; throws when they cannot be read.
    public convenience init(
        connectionString: String, migrationsDirectory: URL, interval: Duration = .seconds(1),
        metricsFactory: any MetricsFactory = MetricsSystem.factory,
        logger: Logger = Logger(label: "trip-history.health")
    ) throws {
        try self.init(
            connectionString: connectionString, migrations: .directory(migrationsDirectory), interval: interval,
            metricsFactory: metricsFactory, logger: logger)
    }

    /// True when the last check passed and is recent (at most three intervals old). Never waits.
    public var isReady: Bool {
        guard let last = last.withLock({ $0 }) else { return false }
        return last.ready && ContinuousClock.now - last.at <= interval * 3
    }

    /// Checks until the service group shuts down, on a thread of its own (libpq blocks).
    public func run() async throws {
        await DedicatedThread.run(name: "PG-health") { self.checkRepeatedly(until: $0) }
    }

    private func checkRepeatedly(until stop: NIOLockedValueBox<Bool>) {
        var connection: PostgresConnection?
        while !stop.withLockedValue({ $0 }) {
            check(&connection)
            // Sleeps the interval in short steps, so shutdown is not held up by it.
            let deadline = ContinuousClock.now + interval
            while ContinuousClock.now < deadline, !stop.withLockedValue({ $0 }) {
                usleep(50_000)
            }
        }
    }

    /// One check on `connection`, opened (or reopened) as needed; records and returns the verdict.
    @discardableResult
    func check(_ connection: inout PostgresConnection?) -> Bool {
        let ready: Bool
        do {
            let current =
                try connection
                ?? PostgresConnection(
                    connectionString: connectionString, connectTimeoutSeconds: 2, statementTimeoutMilliseconds: 2000,
                    queryGrace: .seconds(1), applicationName: "trip-history-health")
            connection = current
            ready =
                try current.query("SELECT 1").int64(0, 0) == 1
                && (try files.map { try MigrationRunner.status(on: current, files: $0).isServable } ?? true)
        } catch {
            logger.debug("database not ready", metadata: ["error": "\(error)"])
            connection = nil
            ready = false
        }
        let previous = last.withLock { last in
            defer { last = (ready, ContinuousClock.now) }
            return last?.ready
        }
        readyGauge.record(ready ? 1 : 0)
        // The first verdict is not a change: an instance that starts unready and becomes ready changed once.
        if let previous, previous != ready { changes.increment() }
        return ready
    }
}
