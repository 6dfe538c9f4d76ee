import Metrics

/// What one queue of a pool records, labelled with the pool's name and the queue: `connections` (callers
/// waiting for a lent connection) or `pipelined` (single-statement reads waiting for a pipelined connection).
///
/// - `trip_history_db_pool_waiting{pool, queue}`: callers waiting now, sampled on each tick of the pool's `run()`;
/// - `trip_history_db_pool_waits_total{pool, queue}`: callers that found every connection busy and waited
///   (the `connections` queue; every pipelined read queues, so that one counts none);
/// - `trip_history_db_pool_wait_seconds{pool, queue}`: how long callers waited before they got a connection
///   (those of `waits_total`) or, in the `pipelined` queue, before their read was sent (every read);
/// - `trip_history_db_pool_shed_total{pool, queue, reason}`: callers refused, `full` at once because the
///   queue held its maximum, `timeout` after waiting the acquire timeout. Each is answered `503`.
struct PostgresPoolMetrics: Sendable {
    let waiting: Gauge
    let waits: Counter
    let shedFull: Counter
    let shedTimeout: Counter
    let wait: Timer

    static let waitLabel = "trip_history_db_pool_wait_seconds"

    init(pool: String, queue: String, factory: any MetricsFactory) {
        let dimensions = [("pool", pool), ("queue", queue)]
        waiting = Gauge(label: "trip_history_db_pool_waiting", dimensions: dimensions, factory: factory)
        waits = Counter(label: "trip_history_db_pool_waits_total", dimensions: dimensions, factory: factory)
        shedFull = Counter(
            label: "trip_history_db_pool_shed_total", dimensions: dimensions + [("reason", "full")], factory: factory)
        shedTimeout = Counter(
            label: "trip_history_db_pool_shed_total", dimensions: dimensions + [("reason", "timeout")],
            factory: factory)
        wait = Timer(
            label: Self.waitLabel, dimensions: dimensions, preferredDisplayUnit: .seconds,
            factory: factory)
    }
}
