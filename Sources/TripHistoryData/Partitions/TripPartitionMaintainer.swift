public import Foundation
public import Logging
public import ServiceLifecycle

/// Creates the trips table's partition of the current year and, from its last month on, of the next, at start
/// and every `interval`, so the first trips of a year find their partition ready instead of creating it on
/// their way (which the writers still do for a year nobody prepared, a back-dated trip's for one). A year
/// is not created earlier than that: every partition a read does not prune costs its plan a little.
public struct TripPartitionMaintainer: Service {
    private let pool: PostgresConnectionPool
    private let interval: Duration
    private let now: @Sendable () -> Date
    private let logger: Logger

    public init(
        pool: PostgresConnectionPool, interval: Duration = .seconds(3600),
        now: @escaping @Sendable () -> Date = Date.init,
        logger: Logger = Logger(label: "trip-history.partitioning")
    ) {
        self.pool = pool
        self.interval = interval
        self.now = now
        self.logger = logger
    }

    /// Prepares every `interval` until the service group shuts down; a failure is logged and retried at the
    /// next interval.
    public func run() async throws {
        await repeatUntilShutdown(every: interval) {
            do {
                try await prepareAhead()
            } catch {
                logger.warning("preparing the trips partitions ahead failed", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Creates the partitions of the current year and of the year 31 days from now, those that are missing.
    public func prepareAhead() async throws {
        let today = now()
        try await pool.withConnection { connection in
            try connection.execute(EnsureTripPartition(at: today))
            try connection.execute(EnsureTripPartition(at: today.addingTimeInterval(31 * 86_400)))
        }
    }
}
