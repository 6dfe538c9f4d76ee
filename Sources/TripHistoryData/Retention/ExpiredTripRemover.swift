public import Foundation
public import Logging
public import Metrics
public import ServiceLifecycle
public import TripHistoryDomain

/// Removes trips older than the retention (`TripRetention`), in the background: each with its receipt, ledger
/// and idempotency keys (by cascade), reported to its rider's changes feed as `erased` so apps drop their
/// copies, and announced on the change channel so every instance drops the rider's cached responses.
///
/// Trips go in batches of `batchSize`, each batch one short transaction; trips that a write holds locked
/// are skipped and taken at the next run, so the job never queues behind an adjustment or an erasure, and a
/// write of the same riders waits at most for one batch. Every `interval`, and once at start. Several
/// instances may run it at once: each takes the trips the others have not locked.
/// Counts the trips it removed (`trip_history_retention_removed_trips_total`) and records when a run last
/// finished (`trip_history_retention_last_success_timestamp_seconds`), so an alert can tell a stalled job.
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
        batchSize: Int = 1_000, now: @escaping @Sendable () -> Date = Date.init,
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
                            "before": "\(removed.cutoff.formatted(.iso8601))",
                        ])
                }
            } catch {
                logger.warning("removing trips past the retention failed", metadata: ["error": "\(error)"])
            }
        }
    }

    /// What one run removed.
    public struct Removal: Hashable, Sendable {
        /// Trips requested before this instant were removed.
        public let cutoff: Date
        public let trips: Int
        /// Riders who had a trip removed.
        public let riders: Int
    }

    /// Removes the trips requested before the cutoff now, batch by batch, until a batch comes back short or
    /// the service shuts down (the next run goes on from there).
    @discardableResult
    public func removeExpired() async throws -> Removal {
        let cutoff = retention.cutoff(at: now())
        var trips = 0
        var riders: Set<Int64> = []
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            let perRider = try await pool.withConnection { connection in
                try connection.transaction { connection in
                    try connection.execute(RemoveTripsRequestedBefore(cutoff: cutoff, limit: batchSize))
                }
            }
            let removed = perRider.reduce(0) { $0 + $1.trips }
            removedTrips.increment(by: removed)
            trips += removed
            riders.formUnion(perRider.map(\.rider))
            if removed < batchSize {
                // Wall time, not `now`, which tests move: an alert compares it with its own clock.
                lastSuccess.record(Date().timeIntervalSince1970)
                break
            }
        }
        return Removal(cutoff: cutoff, trips: trips, riders: riders.count)
    }
}

/// Deletes up to `limit` trips requested before `cutoff` (their receipts, ledgers and idempotency keys go by
/// cascade), appends an `erased` entry per trip to its rider's feed and announces each rider on the change
/// channel; returns a row per rider with the number of the rider's trips removed.
///
/// The trips are locked first, skipping those a write holds, and the riders' counters after them, in rider
/// order: the order erasures and adjustments take the same locks in, so none of them deadlocks with it. A
/// rider without a counter gets one that starts at 1 with no entry, as an erasure's does.
struct RemoveTripsRequestedBefore: PostgresPreparedStatement {
    static let name = "retention_remove_v1"
    static let sql = """
        WITH expired AS (
            SELECT id, rider_id FROM trips WHERE requested_at < $1::timestamptz
            ORDER BY requested_at, id LIMIT $2 FOR UPDATE SKIP LOCKED
        ), gone AS (
            DELETE FROM trips t USING expired e WHERE t.id = e.id RETURNING t.id, t.rider_id
        ), per_rider AS (
            SELECT rider_id, count(*) AS trips FROM gone GROUP BY rider_id
        ), counters AS (
            INSERT INTO rider_change_counters AS c (rider_id, last_seq)
            SELECT rider_id, trips + 1 FROM per_rider ORDER BY rider_id
            ON CONFLICT (rider_id) DO UPDATE SET last_seq = c.last_seq + EXCLUDED.last_seq - 1
            RETURNING rider_id, last_seq
        ), feed AS (
            INSERT INTO trip_changes (rider_id, seq, trip_id, change)
            SELECT gone.rider_id,
                counters.last_seq - per_rider.trips + row_number() OVER (PARTITION BY gone.rider_id ORDER BY gone.id),
                gone.id, 'erased'
            FROM gone JOIN per_rider USING (rider_id) JOIN counters USING (rider_id)
        )
        SELECT pg_notify('\(PostgresChangeListener.channel)', rider_id::text), rider_id, trips FROM per_rider
        """

    let cutoff: Date
    let limit: Int

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(cutoff)
        bindings.append(limit)
        return bindings
    }

    /// The rider and the number of the rider's trips removed.
    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> (rider: Int64, trips: Int) {
        guard let rider = try rows.int64(row, 1), let trips = try rows.int64(row, 2) else {
            throw PostgresError(kind: .decoding, message: "retention returned a rider without a count")
        }
        return (rider, Int(trips))
    }
}
