public import Logging
public import Metrics
import NIOConcurrencyHelpers
import NIOPosix
public import ServiceLifecycle
public import Tracing

/// A bounded set of PostgreSQL connections whose blocking libpq calls all run on the pool's own
/// `NIOThreadPool`, one thread per connection, never on the cooperative pool or an event loop; plus a few
/// connections in pipeline mode that carry the single-statement reads of many callers at once
/// (`read(_:)`, `PostgresPipelinedReads`).
///
/// Connections open lazily. At most `configuration.size` exist; further callers wait up to
/// `acquireTimeout`, at most `maximumWaiters` of them: one more is refused at once with
/// `PostgresPoolError.overloaded`, so under overload callers get a quick 503 instead of a queue that only
/// grows. Each purpose (writes, analyst queries) gets a pool of its own, so one cannot starve another. A
/// connection that broke (server restart, network) is dropped and a new one opened on a later acquire, so the
/// pool recovers from a PostgreSQL restart by itself. Its queues are measured under the pool's name
/// (`PostgresPoolMetrics`).
///
/// Run it as a `Service`: `run()` keeps its time (acquire timeouts, the waiting gauges, idle connections'
/// expiry), and a pool that is not run never times out a waiter. `shutdown()` ends it, at the application's
/// graceful shutdown or when called.
///
/// Its bookkeeping is a `PostgresPoolStateMachine` under one lock: each event (an acquire, a connection back or
/// lost, a tick, a cancellation, the shutdown) is one call to it, and the pool only performs the action that
/// comes back (resumes a caller, counts in the metrics, closes connections).
public final class PostgresConnectionPool: Service, Sendable {
    /// A caller waiting for a connection: resumed with one, with nil (the right to open one) or with an error.
    private typealias Waiter = CheckedContinuation<PostgresConnection?, any Error>
    /// The pool's bookkeeping, kept under `state`'s lock.
    private typealias StateMachine = PostgresPoolStateMachine<PostgresConnection, Waiter>

    public let configuration: Configuration
    private let threadPool: NIOThreadPool
    private let state: NIOLockedValueBox<StateMachine>
    private let logger: Logger
    /// How often `run()` ticks: waiters are failed at most this late. One timer for the pool rather than one
    /// per waiter, since under saturation nearly every request waits.
    private let tickInterval: Duration
    /// Nil for a pool configured with no pipelined connections, which starts no pipeline thread.
    private let pipelinedReads: PostgresPipelinedReads?
    private let metrics: PostgresPoolMetrics
    private let statementTimers: PostgresStatementTimers
    private let name: String
    private let tracer: (any Tracer)?

    /// Creates the pool and starts its threads; no connection is opened until the first `withConnection`, and
    /// nothing times out until `run()`.
    /// Records its queues into `metricsFactory` labelled `pool: name`. With `tracer`, each statement run for
    /// a traced request, and each wait for a connection, becomes a span under that request's; nil (tracing
    /// off) costs nothing.
    public init(
        configuration: Configuration, name: String = "default",
        metricsFactory: any MetricsFactory = MetricsSystem.factory,
        logger: Logger = Logger(label: "trip-history.postgres"), tracer: (any Tracer)? = nil
    ) {
        self.name = name
        self.tracer = tracer
        self.configuration = configuration
        self.logger = logger
        self.threadPool = NIOThreadPool(numberOfThreads: configuration.size)
        threadPool.start()
        self.state = NIOLockedValueBox(
            StateMachine(
                size: configuration.size, maximumWaiters: configuration.maximumWaiters,
                acquireTimeout: configuration.acquireTimeout, idleTimeout: configuration.idleTimeout, now: .now))
        // Waiters are failed at most a tenth of the timeout (and never more than 50 ms) late.
        self.tickInterval = min(configuration.acquireTimeout / 10, .milliseconds(50))
        self.metrics = PostgresPoolMetrics(pool: name, queue: "connections", factory: metricsFactory)
        let statementTimers = PostgresStatementTimers(pool: name, factory: metricsFactory, tracer: tracer)
        self.statementTimers = statementTimers
        self.pipelinedReads =
            configuration.pipelinedConnections == 0
            ? nil
            : PostgresPipelinedReads(
                configuration: configuration,
                metrics: PostgresPoolMetrics(pool: name, queue: "pipelined", factory: metricsFactory),
                timers: statementTimers, logger: logger)
    }

    deinit {
        pipelinedReads?.stop()
        // A started NIOThreadPool must be stopped before it is released.
        if !state.withLockedValue(\.isShutdown) {
            threadPool.shutdownGracefully { _ in }
        }
    }

    /// Lends a connection to `body`, which runs on one of the pool's threads and may block. The connection
    /// returns to the pool afterwards unless it broke. Throws `PostgresPoolError.acquireTimeout` when none is
    /// free in time, `PostgresPoolError.overloaded` at once when `maximumWaiters` callers already wait,
    /// `PostgresError` (kind `connectionFailed`) when a new connection cannot be opened, or
    /// whatever `body` throws. A transaction left open by `body` is rolled back.
    public func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        let lease = try await acquire()
        let configuration = self.configuration
        let timers = statementTimers
        let traceContext = tracer == nil ? nil : ServiceContext.current
        let outcome: Outcome<T>
        do {
            outcome = try await threadPool.runIfActive {
                let connection: PostgresConnection
                do {
                    connection = try configuration.liveConnection(reusing: lease, timers: timers)
                } catch {
                    return Outcome(connection: nil, result: .failure(error))
                }
                connection.traceContext = traceContext
                defer { connection.traceContext = nil }
                let result = Result { try body(connection) }
                return Outcome(connection: Self.reusable(connection, after: result), result: result)
            }
        } catch let error as NIOThreadPoolError.ThreadPoolInactive {
            release(lease)
            logger.debug("thread pool inactive", metadata: ["error": "\(error)"])
            throw PostgresPoolError.shutdown
        } catch {
            // The job never ran (the task was canceled), so the leased connection is untouched.
            release(lease)
            throw error
        }
        release(outcome.connection)
        if case .failure(let error as PostgresError) = outcome.result, error.isConnectionProblem {
            logger.warning("postgres connection dropped", metadata: ["error": "\(error.message)"])
        }
        return try outcome.result.get()
    }

    /// Runs `statement` on a pipelined connection (on a lent one when the pool has none), shared with other
    /// callers' reads, and returns its rows
    /// decoded (on the connection's thread, right after they arrived). For reads that are one statement and
    /// need no transaction. Throws `PostgresError` when the statement fails or the connection cannot be
    /// opened, breaks or stops answering (kind `timedOut`), `PostgresPoolError.acquireTimeout` when it waited
    /// longer than `acquireTimeout` to be sent, `readQueueFull` when too many reads wait already,
    /// `PostgresPoolError.shutdown` after `shutdown()`, or the decoding error. With `requiredReplay`, throws
    /// `ReplicaBehind` unless the connection that serves it is on a standby that has replayed that position.
    public func read<Statement: PostgresStatement>(
        _ statement: Statement, requiredReplay: WALPosition? = nil
    ) async throws -> [Statement.Row] where Statement.Row: Sendable {
        try await read(statement, requiredReplay: requiredReplay) { statement, rows throws(PostgresError) in
            try statement.decodeRows(rows)
        }
    }

    /// Like `read(_:)`, but decodes only the first row; nil when the statement returned none.
    public func readFirst<Statement: PostgresStatement>(
        _ statement: Statement, requiredReplay: WALPosition? = nil
    ) async throws -> Statement.Row? where Statement.Row: Sendable {
        try await read(statement, requiredReplay: requiredReplay) { statement, rows throws(PostgresError) in
            try statement.decodeFirstRow(rows)
        }
    }

    // Callers pass a `decode` that captures nothing, so it adds no allocation to the completion closure.
    private func read<Statement: PostgresStatement, T: Sendable>(
        _ statement: Statement, requiredReplay: WALPosition?,
        decode: @escaping @Sendable (Statement, PostgresRows) throws(PostgresError) -> T
    ) async throws -> T {
        guard let pipelinedReads else {
            return try await withConnection { connection in
                if let requiredReplay {
                    let replayed = try connection.executeFirst(ReplayPosition()) ?? nil
                    guard let replayed, replayed >= requiredReplay else { throw ReplicaBehind() }
                }
                return try decode(statement, try connection.execute(statement.prepared, statement.makeBindings()))
            }
        }
        let pipelined = PostgresConnection.PipelinedStatement(
            statement: statement.prepared, bindings: statement.makeBindings())
        return try await withCheckedThrowingContinuation { continuation in
            pipelinedReads.enqueue(pipelined, requiredReplay: requiredReplay) { outcome in
                continuation.resume(with: Result { try decode(statement, try outcome.get()) })
            }
        }
    }

    /// Ticks every `tickInterval` until the application's graceful shutdown (or until `shutdown()` was called),
    /// then shuts the pool down. Each tick fails the callers and the pipelined reads that waited past the
    /// acquire timeout, samples the waiting gauges and closes connections idle longer than `idleTimeout`.
    public func run() async throws {
        await cancelWhenGracefulShutdown { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: tickInterval)
                guard await tick(now: .now) else { return }
            }
        }
        await shutdown()
    }

    /// Fails every waiter, closes idle connections and stops the threads once running work has finished.
    /// Later calls to `withConnection` throw `PostgresPoolError.shutdown`; connections still lent are closed
    /// as they come back. Safe to call more than once.
    public func shutdown() async {
        guard case .shutDown(let waiters, let idle) = state.withLockedValue({ $0.shutdown() }) else { return }
        await pipelinedReads?.shutdown()
        for waiter in waiters {
            waiter.resume(throwing: PostgresPoolError.shutdown)
        }
        await close(idle)
        try? await threadPool.shutdownGracefully()
    }

    /// Connections currently open or being opened, and those idle; for tests and metrics.
    public var counts: (open: Int, idle: Int) {
        state.withLockedValue { ($0.open, $0.idleCount) }
    }

    /// Callers waiting for a lent connection; for tests and metrics.
    public var waiting: Int {
        state.withLockedValue(\.waiting)
    }

    private static func reusable<T>(
        _ connection: PostgresConnection, after result: Result<T, any Error>
    ) -> PostgresConnection? {
        if case .failure(let error as PostgresError) = result, error.isConnectionProblem { return nil }
        guard connection.isAlive else { return nil }
        if !connection.isIdle {
            try? connection.execute(unsafeSQL: "ROLLBACK")
            guard connection.isIdle else { return nil }
        }
        return connection
    }

    /// An existing connection, or nil for the right to open a new one.
    private func acquire() async throws -> PostgresConnection? {
        switch state.withLockedValue({ $0.acquire() }) {
        case .lend(let connection): return connection
        case .open: return nil
        case .wait(let id): return try await wait(id)
        case .fail(let error): throw error
        }
    }

    private func wait(_ id: StateMachine.WaiterID) async throws -> PostgresConnection? {
        let start = ContinuousClock.now
        let connection = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Waiter) in
                // The cancellation flag is set before the handler runs, so reading it under the lock closes the
                // window in which the handler could miss a waiter not yet queued.
                let action = state.withLockedValue { state in
                    state.wait(continuation, id: id, now: start, isCancelled: Task.isCancelled)
                }
                switch action {
                case .queued: metrics.waits.increment()
                case .lend(let connection, let waiter): waiter.resume(returning: connection)
                case .open(let waiter): waiter.resume(returning: nil)
                case .fail(let waiter, let failure): fail(waiter, failure)
                }
            }
        } onCancel: {
            if case .fail(let waiter, let failure) = state.withLockedValue({ $0.cancelWaiter(id) }) {
                fail(waiter, failure)
            }
        }
        let waited = ContinuousClock.now - start
        metrics.wait.record(duration: waited)
        if let tracer, let context = ServiceContext.current {
            tracer.recordSpan(
                "postgres.pool.wait", context: context, lasting: waited,
                attributes: ["trip_history.db.pool": .string(name)])
        }
        return connection
    }

    /// Returns a connection (or, with nil, the slot of one that broke or never opened) to the next waiter or
    /// the idle list.
    private func release(_ connection: PostgresConnection?) {
        let action = state.withLockedValue { state in
            if let connection { return state.connectionReturned(connection) }
            return state.connectionLost()
        }
        switch action {
        case .none: break
        case .lend(let connection, let waiter): waiter.resume(returning: connection)
        case .open(let waiter): waiter.resume(returning: nil)
        // The threads may be stopping, so the connection closes here, as its last reference goes.
        case .close: break
        }
    }

    /// One tick of `run()`; false once the pool is shut down.
    private func tick(now: ContinuousClock.Instant) async -> Bool {
        guard let action = state.withLockedValue({ $0.tick(now: now) }) else { return false }
        for waiter in action.timedOut {
            fail(waiter, .timedOut)
        }
        pipelinedReads?.expire(now: now)
        metrics.waiting.record(action.waiting)
        if !action.expired.isEmpty { await close(action.expired) }
        return true
    }

    private func fail(_ waiter: Waiter, _ failure: StateMachine.Failure) {
        switch failure {
        case .shed: metrics.shedFull.increment()
        case .timedOut: metrics.shedTimeout.increment()
        case .shutdown, .cancelled: break
        }
        waiter.resume(throwing: failure.error)
    }

    /// Closes `connections`, which the pool no longer counts.
    private func close(_ connections: [PostgresConnection]) async {
        // Closing sends a goodbye to the server, so it runs on the pool's threads like any libpq call.
        _ = try? await threadPool.runIfActive { withExtendedLifetime(connections) {} }
    }

    private struct Outcome<T: Sendable>: Sendable {
        let connection: PostgresConnection?
        let result: Result<T, any Error>
    }
}
