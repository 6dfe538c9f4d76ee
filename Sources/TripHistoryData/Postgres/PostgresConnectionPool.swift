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
/// pool recovers from a PostgreSQL restart by itself. Run it as a `Service`, or call `shutdown()` when done.
/// Its queues are measured under the pool's name (`PostgresPoolMetrics`).
public final class PostgresConnectionPool: Service, Sendable {
    public let configuration: Configuration
    private let threadPool: NIOThreadPool
    private let state = NIOLockedValueBox(State())
    private let logger: Logger
    /// Fails waiters whose acquire timeout has passed. One task for the pool rather than a timer per
    /// waiter: under saturation nearly every request waits, and a task plus a timer each cost measurably.
    private let sweeper = NIOLockedValueBox<Task<Void, Never>?>(nil)
    /// Nil for a pool configured with no pipelined connections, which starts no pipeline thread.
    private let pipelinedReads: PostgresPipelinedReads?
    private let metrics: PostgresPoolMetrics
    private let statementTimers: PostgresStatementTimers
    private let name: String
    private let tracer: (any Tracer)?

    /// Creates the pool and starts its threads; no connection is opened until the first `withConnection`.
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
        // Waiters are failed at most a tenth of the timeout (and never more than 50 ms) late.
        let interval = min(configuration.acquireTimeout / 10, .milliseconds(50))
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                self.expireWaiters(now: .now)
                self.pipelinedReads?.expire(now: .now)
                self.metrics.waiting.record(self.waiting)
            }
        }
        sweeper.withLockedValue { $0 = task }
    }

    deinit {
        sweeper.withLockedValue { $0?.cancel() }
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

    /// Waits for the application's graceful shutdown, then closes every connection and stops the threads.
    public func run() async throws {
        try? await gracefulShutdown()
        await shutdown()
    }

    /// Fails every waiter, closes idle connections and stops the threads once running work has finished.
    /// Later calls to `withConnection` throw `PostgresPoolError.shutdown`. Safe to call more than once.
    public func shutdown() async {
        let taken: (waiters: [Waiter], idle: [PostgresConnection])? = state.withLockedValue { state in
            guard !state.isShutdown else { return nil }
            state.isShutdown = true
            let taken = (state.waiters, state.idle)
            state.open -= state.idle.count
            state.waiters = []
            state.idle = []
            return taken
        }
        guard let taken else { return }
        sweeper.withLockedValue { $0?.cancel() }
        await pipelinedReads?.shutdown()
        for waiter in taken.waiters {
            waiter.continuation.resume(throwing: PostgresPoolError.shutdown)
        }
        let idle = taken.idle
        // Closing sends a goodbye to the server, so it runs on the pool's threads like any libpq call.
        _ = try? await threadPool.runIfActive { withExtendedLifetime(idle) {} }
        try? await threadPool.shutdownGracefully()
    }

    /// Connections currently open or being opened, and those idle; for tests and metrics.
    public var counts: (open: Int, idle: Int) {
        state.withLockedValue { ($0.open, $0.idle.count) }
    }

    /// Callers waiting for a lent connection; for tests and metrics.
    public var waiting: Int {
        state.withLockedValue(\.waiters.count)
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
        let fastPath: Result<PostgresConnection?, PostgresPoolError>? = state.withLockedValue { state in
            if state.isShutdown { return .failure(.shutdown) }
            if let connection = state.idle.popLast() { return .success(connection) }
            if state.open < configuration.size {
                state.open += 1
                return .success(nil)
            }
            return nil
        }
        if let fastPath { return try fastPath.get() }
        return try await wait()
    }

    private func wait() async throws -> PostgresConnection? {
        let id = state.withLockedValue { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        let start = ContinuousClock.now
        let deadline = start.advanced(by: configuration.acquireTimeout)
        let connection = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<PostgresConnection?, any Error>) in
                let immediate: Result<PostgresConnection?, any Error>? = state.withLockedValue { state in
                    if state.isShutdown { return .failure(PostgresPoolError.shutdown) }
                    // The cancellation flag is set before the handler runs, so checking it under the lock
                    // closes the window in which the handler could miss a waiter not yet registered.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if let connection = state.idle.popLast() { return .success(connection) }
                    if state.open < configuration.size {
                        state.open += 1
                        return .success(nil)
                    }
                    if state.waiters.count >= configuration.maximumWaiters {
                        return .failure(PostgresPoolError.overloaded)
                    }
                    state.waiters.append(Waiter(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                guard let immediate else {
                    metrics.waits.increment()
                    return
                }
                if case .failure(let error) = immediate, error as? PostgresPoolError == .overloaded {
                    metrics.shedFull.increment()
                }
                continuation.resume(with: immediate)
            }
        } onCancel: {
            removeWaiter(id, error: CancellationError())
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

    /// Fails, with `acquireTimeout`, every waiter whose deadline has passed.
    private func expireWaiters(now: ContinuousClock.Instant) {
        // Waiters queue in arrival order with the same timeout, so the expired ones are a prefix.
        let expired: [Waiter] = state.withLockedValue { state in
            let count = state.waiters.prefix { $0.deadline <= now }.count
            guard count > 0 else { return [] }
            defer { state.waiters.removeFirst(count) }
            return Array(state.waiters.prefix(count))
        }
        if !expired.isEmpty { metrics.shedTimeout.increment(by: expired.count) }
        for waiter in expired {
            waiter.continuation.resume(throwing: PostgresPoolError.acquireTimeout)
        }
    }

    private func removeWaiter(_ id: Int, error: any Error) {
        let waiter: Waiter? = state.withLockedValue { state in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: error)
    }

    /// Returns a connection (or, with nil, the slot of one that broke or never opened) to the next waiter or
    /// the idle list.
    private func release(_ connection: PostgresConnection?) {
        let handOff: (Waiter, PostgresConnection?)? = state.withLockedValue { state in
            if state.isShutdown {
                state.open -= 1
                return nil
            }
            if !state.waiters.isEmpty {
                return (state.waiters.removeFirst(), connection)
            }
            if let connection {
                state.idle.append(connection)
            } else {
                state.open -= 1
            }
            return nil
        }
        if let (waiter, connection) = handOff {
            waiter.continuation.resume(returning: connection)
        }
    }

    private struct State {
        var idle: [PostgresConnection] = []
        /// Connections counted against the size: idle, lent, or being opened.
        var open = 0
        var waiters: [Waiter] = []
        var nextWaiterID = 0
        var isShutdown = false
    }

    private struct Waiter {
        let id: Int
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<PostgresConnection?, any Error>
    }

    private struct Outcome<T: Sendable>: Sendable {
        let connection: PostgresConnection?
        let result: Result<T, any Error>
    }
}
