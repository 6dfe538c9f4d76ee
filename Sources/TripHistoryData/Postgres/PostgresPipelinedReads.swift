import Foundation
import Logging
import Metrics
import Tracing

/// Single-statement reads of many concurrent callers, carried over a few connections in libpq's pipeline
/// mode. Each connection has a thread of its own that takes every read waiting (up to
/// `maximumPipelineBatch`), sends them all, then reads their results in order and completes each read on
/// that thread.
///
/// Why: with one blocking connection per read, every read woke a thread to send, put it to sleep until the
/// reply, and woke it again; and eight busy backends cost PostgreSQL more per query than two (pgbench on
/// this schema, `BENCHMARKS.md`).
/// A pipeline sends a batch per wake-up and keeps the number of busy backends at the number of connections.
///
/// Connections open lazily on their thread and are replaced after they break or stop answering (each result
/// is awaited no longer than the connections' query timeout, `Configuration.queryGrace` past the statement
/// timeout); a read that was sent on a connection that broke fails with its error (the callers answer 503)
/// and is not retried. A read still waiting `acquireTimeout` after it arrived fails with
/// `PostgresPoolError.acquireTimeout` (each tick of the pool's `run()` calls `expire(now:)`, so this holds
/// while every thread is busy with a batch), as a wait for a lent connection does; and with more than
/// `maximumQueuedReads` waiting, a new read fails at once with `PostgresPoolError.readQueueFull`: under
/// overload or while PostgreSQL does not answer, callers get a quick 503 rather than an ever longer queue.
final class PostgresPipelinedReads: @unchecked Sendable {
    // @unchecked Sendable: `reads`, `isShutdown` and `running` are only touched with `condition` locked.

    /// One read: the statement with its bindings, the replay position the serving connection must have
    /// reached (nil: none), when it was queued, when waiting longer means failing with `acquireTimeout`, and
    /// what to do with the outcome (called once, on the connection's thread, so the rows are read where they
    /// were produced).
    struct Read: Sendable {
        let query: PostgresConnection.PipelinedStatement
        let requiredReplay: WALPosition?
        let enqueued: ContinuousClock.Instant
        let deadline: ContinuousClock.Instant
        let complete: @Sendable (Result<PostgresRows, any Error>) -> Void
        /// The caller's context, captured when the pool traces: the read completes on a connection's thread,
        /// where the caller's task-local context is not visible.
        var context: ServiceContext? = nil
    }

    /// The context of the replay check: that of the first traced read it is sent for.
    private static func firstContext(of batch: [Read]) -> ServiceContext? {
        batch.first { $0.context != nil }?.context
    }

    /// Sent first in a batch that holds a read with a required replay position.
    private static let replayCheck = PostgresConnection.PipelinedStatement(
        statement: ReplayPosition().prepared, bindings: ReplayPosition().makeBindings())

    private let configuration: PostgresConnectionPool.Configuration
    private let metrics: PostgresPoolMetrics
    private let timers: PostgresStatementTimers
    private let logger: Logger
    private let condition = NSCondition()
    private var reads: [Read] = []
    private var isShutdown = false
    private var running: Int
    private var stopped: [CheckedContinuation<Void, Never>] = []

    init(
        configuration: PostgresConnectionPool.Configuration, metrics: PostgresPoolMetrics,
        timers: PostgresStatementTimers, logger: Logger
    ) {
        self.configuration = configuration
        self.metrics = metrics
        self.timers = timers
        self.logger = logger
        self.running = configuration.pipelinedConnections
        for index in 0..<configuration.pipelinedConnections {
            DedicatedThread.start(name: "PG-pipeline-\(index)") { [self] in work() }
        }
    }

    /// Queues `query`, whose outcome goes to `complete` (called once, on a connection's thread, or on the
    /// caller's or the pool's timer's when it fails without being sent); fails it at once with
    /// `PostgresPoolError.shutdown` once `shutdown()` was called, and with `readQueueFull` when the queue is.
    /// With `requiredReplay`, the read fails with `ReplicaBehind` unless the connection that would serve it is
    /// on a standby that has replayed at least that position.
    func enqueue(
        _ query: PostgresConnection.PipelinedStatement, requiredReplay: WALPosition? = nil,
        complete: @escaping @Sendable (Result<PostgresRows, any Error>) -> Void
    ) {
        let now = ContinuousClock.now
        let read = Read(
            query: query, requiredReplay: requiredReplay, enqueued: now,
            deadline: now.advanced(by: configuration.acquireTimeout), complete: complete,
            context: timers.isTracing ? ServiceContext.current : nil)
        condition.lock()
        guard !isShutdown else {
            condition.unlock()
            read.complete(.failure(PostgresPoolError.shutdown))
            return
        }
        guard reads.count < configuration.maximumQueuedReads else {
            condition.unlock()
            metrics.shedFull.increment()
            read.complete(.failure(PostgresPoolError.readQueueFull))
            return
        }
        reads.append(read)
        condition.signal()
        condition.unlock()
    }

    /// Fails the reads still waiting with `PostgresPoolError.shutdown`, then returns once every connection's
    /// thread has finished its current batch and closed its connection. Safe to call more than once.
    func shutdown() async {
        let waiting = stop()
        for read in waiting { read.complete(.failure(PostgresPoolError.shutdown)) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            if running == 0 {
                condition.unlock()
                continuation.resume()
            } else {
                stopped.append(continuation)
                condition.unlock()
            }
        }
    }

    /// Fails, with `PostgresPoolError.acquireTimeout`, every read that waited past its deadline.
    func expire(now: ContinuousClock.Instant) {
        condition.lock()
        let expired = takeExpired(now: now)
        let waiting = reads.count
        condition.unlock()
        metrics.waiting.record(waiting)
        for read in expired { read.complete(.failure(PostgresPoolError.acquireTimeout)) }
    }

    /// Removes and returns the waiting reads whose deadline has passed; call with `condition` locked.
    private func takeExpired(now: ContinuousClock.Instant) -> [Read] {
        // Reads queue in arrival order with the same timeout, so the expired ones are a prefix.
        let count = reads.prefix { $0.deadline <= now }.count
        guard count > 0 else { return [] }
        metrics.shedTimeout.increment(by: count)
        defer { reads.removeFirst(count) }
        return Array(reads.prefix(count))
    }

    /// Marks the reads as shut down and wakes every thread; returns the reads that never started.
    @discardableResult
    func stop() -> [Read] {
        condition.lock()
        isShutdown = true
        let waiting = reads
        reads = []
        condition.broadcast()
        condition.unlock()
        return waiting
    }

    private func work() {
        var connection: PostgresConnection?
        while let (batch, expired) = nextBatch() {
            for read in expired { read.complete(.failure(PostgresPoolError.acquireTimeout)) }
            if !batch.isEmpty { connection = run(batch, on: connection) }
        }
        // Closing sends the server a goodbye, so it happens here, on the connection's own thread.
        connection = nil
        condition.lock()
        running -= 1
        let waiters = running == 0 ? stopped : []
        if running == 0 { stopped = [] }
        condition.unlock()
        for waiter in waiters { waiter.resume() }
    }

    /// The reads to send next and those that waited past their deadline, or nil once shut down.
    private func nextBatch() -> (batch: [Read], expired: [Read])? {
        condition.lock()
        defer { condition.unlock() }
        while reads.isEmpty && !isShutdown { condition.wait() }
        guard !isShutdown else { return nil }
        let expired = takeExpired(now: .now)
        let count = min(reads.count, configuration.maximumPipelineBatch)
        let batch = Array(reads.prefix(count))
        reads.removeFirst(count)
        // Another thread may take what is left rather than wait for this batch to finish.
        if !reads.isEmpty { condition.signal() }
        return (batch, expired)
    }

    /// Runs `batch` on `existing` (or a new connection when it is gone or broke) and returns the connection
    /// to use next time, nil when it must be replaced.
    private func run(_ batch: [Read], on existing: PostgresConnection?) -> PostgresConnection? {
        let connection: PostgresConnection
        do {
            connection = try configuration.liveConnection(reusing: existing, timers: timers)
        } catch {
            for read in batch { read.complete(.failure(error)) }
            return nil
        }
        // The check runs before the reads in the same pipeline, and a standby's replay only moves forward, so
        // each read's snapshot is at least as recent as the position the check reports.
        let checksReplay = batch.contains { $0.requiredReplay != nil }
        let first = checksReplay ? 1 : 0
        var replayed: WALPosition?
        var reported = 0
        let statements = (checksReplay ? [Self.replayCheck] : []) + batch.map(\.query)
        let start = ContinuousClock.now
        for read in batch { metrics.wait.record(duration: start - read.enqueued) }
        do {
            try connection.executePipelined(statements) { index, result in
                timers.record(
                    statements[index].statement.name, since: start,
                    context: index >= first ? batch[index - first].context : Self.firstContext(of: batch))
                guard index >= first else {
                    replayed = (try? result.get()).flatMap { try? ReplayPosition().decodeFirstRow($0) } ?? nil
                    return
                }
                let read = batch[index - first]
                reported = index - first + 1
                if let required = read.requiredReplay, !(replayed.map { $0 >= required } ?? false) {
                    read.complete(.failure(ReplicaBehind()))
                } else {
                    read.complete(result.mapError { $0 })
                }
            }
            return connection
        } catch {
            logger.warning("postgres pipeline connection dropped", metadata: ["error": "\(error.message)"])
            for read in batch[reported...] { read.complete(.failure(error)) }
            return nil
        }
    }
}
