import Metrics
import Synchronization

/// How long each statement of one pool takes, from sending it to its last result:
/// `trip_history_db_statement_seconds{pool, statement}`, a histogram per prepared statement's name (bound
/// values are never part of a label), with `commit` for the commit of a transaction, whose time includes the
/// wait for a synchronous standby. A pipelined statement's time runs from its batch's send, so it includes
/// the statements ahead of it in that batch, which is what its caller waited.
final class PostgresStatementTimers: Sendable {
    /// The histogram's name, whose buckets the service sets finer than swift-prometheus's default.
    static let label = "trip_history_db_statement_seconds"

    private let pool: String
    private let factory: any MetricsFactory
    private let timers = Mutex<[String: Timer]>([:])

    init(pool: String, factory: any MetricsFactory) {
        self.pool = pool
        self.factory = factory
    }

    /// Records that `statement` took from `start` until now.
    func record(_ statement: String, since start: ContinuousClock.Instant) {
        timer(statement).record(duration: ContinuousClock.now - start)
    }

    private func timer(_ statement: String) -> Timer {
        timers.withLock { timers in
            if let found = timers[statement] { return found }
            let made = Timer(
                label: Self.label, dimensions: [("pool", pool), ("statement", statement)],
                preferredDisplayUnit: .seconds, factory: factory)
            timers[statement] = made
            return made
        }
    }
}
