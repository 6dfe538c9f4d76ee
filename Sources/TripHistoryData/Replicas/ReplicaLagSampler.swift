public import CoreMetrics
import Foundation
public import Logging
import NIOConcurrencyHelpers
public import ServiceLifecycle

/// Samples, every `interval` and on connections of its own, how far the reader is behind the writer, and
/// reports the reader's replay position to the routing (nil while the reader cannot be reached, so reads go
/// to the writer). A reader that is not in recovery (a `prefer-standby` URL that fell back to a primary) is
/// reported as `.end`: analyst reads may use it, rider reads go to the writer. The sample only chooses where
/// reads are tried; a reader connection checks its own server's position before serving a rider read (see
/// `PostgresReadRouting`), since this session may be on another node than the pool's.
///
/// Gauges: `trip_history_replica_up` (1 or 0), `trip_history_replica_lag_bytes` (writer's
/// `pg_current_wal_lsn()` minus reader's `pg_last_wal_replay_lsn()`), and `trip_history_replica_lag_seconds`
/// (age of the last replayed transaction while bytes are behind, else 0).
public final class ReplicaLagSampler: Service, Sendable {
    /// One sample, also returned by `sample` for tests.
    public struct Sample: Sendable {
        public var replayed: WALPosition?
        public var lagBytes: UInt64?
        public var lagSeconds: Double?
    }

    private let writerConnectionString: String
    private let readerConnectionString: String
    private let routing: PostgresReadRouting
    private let interval: Duration
    private let logger: Logger
    private let up: Gauge
    private let lagBytes: Gauge
    private let lagSeconds: Gauge

    public init(
        writerConnectionString: String, readerConnectionString: String, routing: PostgresReadRouting,
        interval: Duration = .milliseconds(100), metricsFactory: any MetricsFactory = MetricsSystem.factory,
        logger: Logger = Logger(label: "trip-history.replica")
    ) {
        self.writerConnectionString = writerConnectionString
        self.readerConnectionString = readerConnectionString
        self.routing = routing
        self.interval = interval
        self.logger = logger
        up = Gauge(label: "trip_history_replica_up", factory: metricsFactory)
        lagBytes = Gauge(label: "trip_history_replica_lag_bytes", factory: metricsFactory)
        lagSeconds = Gauge(label: "trip_history_replica_lag_seconds", factory: metricsFactory)
    }

    /// Samples until the service group shuts down, on a thread of its own (libpq blocks).
    public func run() async throws {
        await DedicatedThread.run(name: "PG-replica-lag") { self.sampleRepeatedly(until: $0) }
    }

    private func sampleRepeatedly(until stop: NIOLockedValueBox<Bool>) {
        var writer: PostgresConnection?
        var reader: PostgresConnection?
        while !stop.withLockedValue({ $0 }) {
            let started = ContinuousClock.now
            sample(writer: &writer, reader: &reader)
            while ContinuousClock.now - started < interval, !stop.withLockedValue({ $0 }) {
                usleep(10_000)
            }
        }
    }

    /// One sample on the given connections, opened (or reopened) as needed; reported and returned.
    @discardableResult
    public func sample(writer: inout PostgresConnection?, reader: inout PostgresConnection?) -> Sample {
        var result = Sample()
        var replayTimestampAge: Double?
        do {
            let current = try reader ?? open(readerConnectionString, name: "trip-history-replica-sampler")
            reader = current
            let rows = try current.query(
                """
                SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn()::text,
                    EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())::float8
                """)
            let replaying = try rows.bool(0, 0) ?? false
            result.replayed = replaying ? try rows.string(0, 1).flatMap(WALPosition.init) ?? .zero : .end
            replayTimestampAge = try rows.double(0, 2)
        } catch {
            logger.debug("reader not reachable", metadata: ["error": "\(error)"])
            reader = nil
        }
        routing.replicaSampled(replayed: result.replayed)
        up.record(result.replayed == nil ? 0 : 1)
        guard let replayed = result.replayed else { return result }
        do {
            let current = try writer ?? open(writerConnectionString, name: "trip-history-replica-sampler")
            writer = current
            let text = try current.query("SELECT pg_current_wal_lsn()::text").string(0, 0)
            if let position = text.flatMap(WALPosition.init) {
                let behind = replayed >= position ? 0 : position.value - replayed.value
                result.lagBytes = behind
                result.lagSeconds = behind == 0 ? 0 : max(replayTimestampAge ?? 0, 0)
                lagBytes.record(Int64(clamping: behind))
                lagSeconds.record(result.lagSeconds ?? 0)
            }
        } catch {
            logger.debug("writer not reachable for the lag sample", metadata: ["error": "\(error)"])
            writer = nil
        }
        return result
    }

    private func open(_ connectionString: String, name: String) throws(PostgresError) -> PostgresConnection {
        try PostgresConnection(
            connectionString: connectionString, connectTimeoutSeconds: 2, statementTimeoutMilliseconds: 2000,
            queryGrace: .seconds(1), applicationName: name)
    }
}
