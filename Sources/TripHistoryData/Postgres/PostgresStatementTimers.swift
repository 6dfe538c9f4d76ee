import Metrics
import Synchronization
import Tracing

/// How long each statement of one pool takes, from sending it to its last result:
/// `trip_history_db_statement_seconds{pool, statement}`, a histogram per prepared statement's name (bound
/// values are never part of a label), with `commit` for the commit of a transaction, whose time includes the
/// wait for a synchronous standby. A pipelined statement's time runs from its batch's send, so it includes
/// the statements ahead of it in that batch, which is what its caller waited.
///
/// With a tracer, the same measurement also becomes a client span named for the statement, under the span
/// of the request that ran it (`context`); statements outside any traced request get no span.
final class PostgresStatementTimers: Sendable {
    /// The histogram's name, whose buckets the service sets finer than swift-prometheus's default.
    static let label = "trip_history_db_statement_seconds"

    private let pool: String
    private let factory: any MetricsFactory
    private let tracer: (any Tracer)?
    private let timers = Mutex<[String: Timer]>([:])

    init(pool: String, factory: any MetricsFactory, tracer: (any Tracer)? = nil) {
        self.pool = pool
        self.factory = factory
        self.tracer = tracer
    }

    /// Whether statements get spans, so callers capture their `ServiceContext` only when they do.
    var isTracing: Bool { tracer != nil }

    /// Records that `statement` took from `start` until now; with a tracer and a `context`, also as a span.
    func record(_ statement: String, since start: ContinuousClock.Instant, context: ServiceContext? = nil) {
        let elapsed = ContinuousClock.now - start
        timer(statement).record(duration: elapsed)
        if let tracer, let context {
            tracer.recordSpan(
                statement, context: context, ofKind: .client, lasting: elapsed,
                attributes: [
                    "db.system.name": "postgresql", "db.operation.name": .string(statement),
                    "trip_history.db.pool": .string(pool),
                ])
        }
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
