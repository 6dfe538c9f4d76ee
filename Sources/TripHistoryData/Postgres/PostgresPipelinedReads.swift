import Foundation
import Logging

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
/// Connections open lazily on their thread and are replaced after they break; a read that was sent on a
/// connection that broke fails with its error (the callers answer 503) and is not retried. A read still
/// waiting when its connection's thread next looks, `acquireTimeout` after it arrived, fails with
/// `PostgresPoolError.acquireTimeout`, as a wait for a lent connection does: under overload callers get a
/// quick 503 rather than an ever longer queue.
final class PostgresPipelinedReads: @unchecked Sendable {
    // @unchecked Sendable: `reads`, `isShutdown` and `running` are only touched with `condition` locked.

    /// One read: the statement with its bindings, when waiting longer means failing with
    /// `acquireTimeout`, and what to do with the outcome (called once, on the connection's thread, so the
    /// rows are read where they were produced).
    struct Read: Sendable {
        let query: PostgresConnection.PipelinedStatement
        let deadline: ContinuousClock.Instant
        let complete: @Sendable (Result<PostgresRows, any Error>) -> Void
    }

    private let configuration: PostgresConnectionPool.Configuration
    private let logger: Logger
    private let condition = NSCondition()
    private var reads: [Read] = []
    private var isShutdown = false
    private var running: Int
    private var stopped: [CheckedContinuation<Void, Never>] = []

    init(configuration: PostgresConnectionPool.Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        self.running = configuration.pipelinedConnections
        for index in 0..<configuration.pipelinedConnections {
            Thread { [self] in
                // Named from inside: on Linux only the thread itself can set its system-visible name.
                Thread.current.name = "PG-pipeline-\(index)"
                work()
            }.start()
        }
    }

    /// Queues `query`, whose outcome goes to `complete` (called once, on a connection's thread); fails it at
    /// once with `PostgresPoolError.shutdown` once `shutdown()` was called.
    func enqueue(
        _ query: PostgresConnection.PipelinedStatement,
        complete: @escaping @Sendable (Result<PostgresRows, any Error>) -> Void
    ) {
        let read = Read(query: query, deadline: .now.advanced(by: configuration.acquireTimeout), complete: complete)
        condition.lock()
        guard !isShutdown else {
            condition.unlock()
            read.complete(.failure(PostgresPoolError.shutdown))
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
        // Reads queue in arrival order with the same timeout, so the expired ones are a prefix.
        let now = ContinuousClock.Instant.now
        let expiredCount = reads.prefix { $0.deadline <= now }.count
        let expired = Array(reads.prefix(expiredCount))
        let count = min(reads.count - expiredCount, configuration.maximumPipelineBatch)
        let batch = Array(reads[expiredCount..<(expiredCount + count)])
        reads.removeFirst(expiredCount + count)
        // Another thread may take what is left rather than wait for this batch to finish.
        if !reads.isEmpty { condition.signal() }
        return (batch, expired)
    }

    /// Runs `batch` on `existing` (or a new connection when it is gone or broke) and returns the connection
    /// to use next time, nil when it must be replaced.
    private func run(_ batch: [Read], on existing: PostgresConnection?) -> PostgresConnection? {
        let connection: PostgresConnection
        do {
            connection = try configuration.liveConnection(reusing: existing)
        } catch {
            for read in batch { read.complete(.failure(error)) }
            return nil
        }
        var reported = 0
        do {
            try connection.executePipelined(batch.map(\.query)) { index, result in
                reported = index + 1
                batch[index].complete(result.mapError { $0 })
            }
            return connection
        } catch {
            logger.warning("postgres pipeline connection dropped", metadata: ["error": "\(error.message)"])
            for read in batch[reported...] { read.complete(.failure(error)) }
            return nil
        }
    }
}
