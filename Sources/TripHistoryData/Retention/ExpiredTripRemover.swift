public import Foundation
public import Logging
public import Metrics
public import ServiceLifecycle
public import TripHistoryDomain

/// Removes the trips past the retention (`TripRetention`), in the background, a year at a time: a year of the
/// partitioned trips table leaves once the cutoff has passed its end. Its partition is detached without
/// blocking reads or writes (`DETACH PARTITION CONCURRENTLY`), so every read stops finding its trips at once;
/// then, in batches of `batchSize` trips, each one short transaction, the trips' receipts, ledgers and
/// idempotency keys are deleted, each trip is reported to its rider's changes feed as `erased` (so apps drop
/// their copies) and the riders are announced on the change channel (so every instance drops their cached
/// responses); then the detached table is dropped whole. A run that stops midway goes on from the last batch
/// at the next (`trip_retirements` keeps where it got to).
///
/// Every `interval`, and once at start. Counts the trips it removed
/// (`trip_history_retention_removed_trips_total`) and records when a run last finished
/// (`trip_history_retention_last_success_timestamp_seconds`), so an alert can tell a stalled job. A retention
/// needs the partitioned table (`trip-history partition-trips`): on an unpartitioned one a run removes nothing
/// and fails with `RetentionError.tripsNotPartitioned`, so the job logs an error and its alert fires.
public struct ExpiredTripRemover: Service {
    private let pool: PostgresConnectionPool
    private let retention: TripRetention
    private let interval: Duration
    private let batchSize: Int
    private let now: @Sendable () -> Date
    private let removedTrips: Counter
    private let lastSuccess: Gauge
    private let logger: Logger

    public init(
        pool: PostgresConnectionPool, retention: TripRetention, interval: Duration = .seconds(600),
        batchSize: Int = 10_000, now: @escaping @Sendable () -> Date = Date.init,
        metricsFactory: any MetricsFactory = MetricsSystem.factory,
        logger: Logger = Logger(label: "trip-history.retention")
    ) {
        self.pool = pool
        self.retention = retention
        self.interval = interval
        self.batchSize = batchSize
        self.now = now
        removedTrips = Counter(label: "trip_history_retention_removed_trips_total", factory: metricsFactory)
        lastSuccess = Gauge(label: "trip_history_retention_last_success_timestamp_seconds", factory: metricsFactory)
        self.logger = logger
    }

    /// Removes every `interval` until the service group shuts down; a failed run is logged and retried at the
    /// next interval.
    public func run() async throws {
        await repeatUntilShutdown(every: interval) {
            do {
                let removed = try await removeExpired()
                if removed.trips > 0 {
                    logger.info(
                        "removed trips past the retention",
                        metadata: [
                            "trips": "\(removed.trips)", "riders": "\(removed.riders)",
                            "years": "\(removed.years.map(String.init).joined(separator: ","))",
                            "cutoff": "\(removed.cutoff.formatted(.iso8601))",
                        ])
                }
            } catch {
                logger.error("removing trips past the retention failed", metadata: ["error": "\(error)"])
            }
        }
    }

    /// What one run removed.
    public struct Removal: Hashable, Sendable {
        /// The retention's cutoff: the years that ended before it were removed.
        public let cutoff: Date
        /// The years removed, oldest first.
        public let years: [Int]
        public let trips: Int
        /// Riders who had a trip removed.
        public let riders: Int
    }

    /// Removes the years that ended before the cutoff now: detaches each, then reports and drops every
    /// detached year, batch by batch, until done or the service shuts down (the next run goes on from there).
    @discardableResult
    public func removeExpired() async throws -> Removal {
        let cutoff = retention.cutoff(at: now())
        guard try await pool.withConnection({ try $0.executeFirst(TripsArePartitioned()) }) == true else {
            throw RetentionError.tripsNotPartitioned
        }
        for year in try await pool.withConnection({ try $0.execute(ExpiredTripPartitions(cutoff: cutoff)) }) {
            try await pool.withConnection { try Self.detach(year, on: $0) }
        }
        var years: [Int] = []
        var trips = 0
        var riders: Set<Int64> = []
        for year in try await pool.withConnection({ try $0.execute(RetiredTripPartitions()) }) {
            var after = try await pool.withConnection { try $0.executeFirst(RetirementProgress(year: year)) } ?? 0
            while true {
                if Task.isShuttingDownGracefully || Task.isCancelled {
                    return Removal(cutoff: cutoff, years: years, trips: trips, riders: riders.count)
                }
                let batch = ReportRetiredTrips(year: year, after: after, limit: batchSize)
                let perRider = try await pool.withConnection { connection in
                    try connection.transaction { connection in
                        try connection.execute(RetirementLock())
                        return try connection.execute(batch)
                    }
                }
                guard let last = perRider.first?.last else { break }
                after = last
                let removed = perRider.reduce(0) { $0 + $1.trips }
                removedTrips.increment(by: removed)
                trips += removed
                riders.formUnion(perRider.map(\.rider))
            }
            try await pool.withConnection { connection in
                try connection.transaction { connection in
                    try connection.execute(RetirementLock())
                    try connection.execute(unsafeSQL: "DROP TABLE \(ExpiredTripPartitions.table(year))")
                    try connection.execute(ForgetRetirement(year: year))
                }
            }
            years.append(year)
        }
        // Wall time, not `now`, which tests move: an alert compares it with its own clock.
        lastSuccess.record(Date().timeIntervalSince1970)
        return Removal(cutoff: cutoff, years: years, trips: trips, riders: riders.count)
    }

    /// Detaches the year's partition without blocking reads or writes, or finishes a detach an earlier run
    /// left pending. `DETACH ... CONCURRENTLY` waits for every transaction that may still read the partition,
    /// a long export too, so it runs without statement timeout.
    private static func detach(_ partition: ExpiredTripPartitions.Partition, on connection: PostgresConnection) throws {
        try connection.withoutTimeouts {
            let how = partition.detachPending ? "FINALIZE" : "CONCURRENTLY"
            let table = ExpiredTripPartitions.table(partition.year)
            try connection.execute(unsafeSQL: "ALTER TABLE trips DETACH PARTITION \(table) \(how)")
        }
    }
}

/// Why a retention cannot run.
public enum RetentionError: Error, CustomStringConvertible {
    /// The trips table is not partitioned, so no year can leave whole.
    case tripsNotPartitioned

    public var description: String {
        "a retention needs the trips table partitioned by year: run trip-history partition-trips once (online)"
    }
}
