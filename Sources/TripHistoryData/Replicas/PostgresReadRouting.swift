public import CoreMetrics
import Foundation
public import Logging
import Metrics
import Synchronization
public import Tracing
public import TripHistoryDomain

/// Chooses the database target of each read: the writer (`DATABASE_URL`) or, when one is configured and
/// safe for the read, the reader (`DATABASE_READ_URL`, usually a streaming standby).
///
/// Read-your-writes for rider reads: the change listener reports each committed trip's rider with a WAL
/// position at or past its commit (`changeCommitted(riderID:at:)`); a rider's read goes to the reader only
/// when the reader's last sampled replay position (`replicaSampled`) has reached the rider's, and only after
/// the listener has proven, through `ChangeFeedBarrier`, that it received every notification committed before
/// the read began (so a trip acknowledged by another instance a moment ago is known here too). Otherwise, or
/// when the reader is down, unsampled, not a standby, or the feed is not listening, the read goes to the
/// writer. The sample only chooses where to try: the reader connection that serves the read checks its own
/// server's replay position in the same pipeline (`PostgresConnectionPool.read(_:requiredReplay:)`), since
/// with a multi-host reader URL the sampler's session and the pool's may be on different nodes (after a
/// failover, one on the new primary and one on the old primary rejoining as a lagging standby); a connection
/// behind sends the read to the writer. Requirements
/// are dropped once replayed; past `maximumTrackedRiders` a new one raises a floor that applies to every
/// rider instead. Analyst reads (lists, exports, stats) go to the reader whenever it is up, without that
/// guarantee. A reader read that fails on a connection problem is retried once on the writer.
public final class PostgresReadRouting: Sendable {
    /// Where a read was sent, the `target` label of the read counter.
    public enum Target: String, Sendable, CaseIterable {
        case writer
        case reader
    }

    /// Reads sent to each target since start, for tests and benchmarks.
    public struct Statistics: Sendable, Equatable {
        public var writerReads = 0
        public var readerReads = 0
    }

    private struct State {
        var requirements: [RiderID: WALPosition] = [:]
        /// A requirement of every rider: raised when the feed (re)starts, by a notification without a rider,
        /// and when there are too many riders to track.
        var floor = WALPosition.end
        /// The reader's replay position at the last successful sample; nil while the reader is down.
        var replayed: WALPosition?
        var listening = false
        var statistics = Statistics()

        /// Requires every rider's reads to see `position`; `.end` (no floor) is replaced, not compared.
        mutating func raiseFloor(to position: WALPosition) {
            floor = floor == .end ? position : max(floor, position)
        }
    }

    public let writer: PostgresConnectionPool
    public let reader: PostgresConnectionPool?
    /// The channel the barrier tokens are NOTIFYed on; unique to this instance.
    public let barrierChannel: String
    private let maximumTrackedRiders: Int
    private let state = Mutex(State())
    private let barrier: ChangeFeedBarrier?
    private let writerReads: Counter
    private let readerReads: Counter
    private let readerBehind: Counter
    private let routing: ReadRoutingMetrics
    private let logger: Logger
    private let tracer: (any Tracer)?

    /// Without `reader`, every read goes to `writer` and nothing else here has any effect, except that
    /// `fencesChanges` still makes the change-feed barrier available as a `ChangeFeedFence` (strict cache
    /// coherence), with `barrierChannel` to be listened on. With `tracer`, each barrier a traced request waits
    /// for becomes a span under that request's.
    public init(
        writer: PostgresConnectionPool, reader: PostgresConnectionPool?, fencesChanges: Bool = false,
        barrierTimeout: Duration = .seconds(1),
        maximumTrackedRiders: Int = 100_000, metricsFactory: any MetricsFactory = MetricsSystem.factory,
        logger: Logger = Logger(label: "trip-history.routing"), tracer: (any Tracer)? = nil
    ) {
        self.tracer = tracer
        self.writer = writer
        self.reader = reader
        self.barrierChannel = "trip_history_barrier_" + String(UInt64.random(in: 1...UInt64.max), radix: 16)
        self.maximumTrackedRiders = max(maximumTrackedRiders, 1)
        self.logger = logger
        writerReads = Counter(
            label: "trip_history_db_reads_total", dimensions: [("target", Target.writer.rawValue)],
            factory: metricsFactory)
        readerReads = Counter(
            label: "trip_history_db_reads_total", dimensions: [("target", Target.reader.rawValue)],
            factory: metricsFactory)
        readerBehind = Counter(label: "trip_history_db_reader_behind_total", factory: metricsFactory)
        routing = ReadRoutingMetrics(factory: metricsFactory)
        if reader != nil || fencesChanges {
            let channel = barrierChannel
            barrier = ChangeFeedBarrier(timeout: barrierTimeout) { token in
                try await writer.withConnection { connection in
                    try connection.execute(unsafeSQL: "SELECT pg_notify('\(channel)', '\(token)')")
                }
            }
        } else {
            barrier = nil
        }
    }

    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// Whether the last sample reached the reader; false also when none is configured.
    public var isReaderUp: Bool { state.withLock { $0.replayed != nil } }

    /// Runs a read of `riderID`'s trips on a target that has every trip of the rider acknowledged before the
    /// call.
    func riderRead<T>(_ riderID: RiderID, _ body: (RoutedReads) async throws -> T) async throws -> T {
        let onWriter: (PostgresConnectionPool) async throws -> T = { try await body(RoutedReads(pool: $0)) }
        guard let reader, let barrier else { return try await run(.rider, .writer, .noReader, onWriter) }
        let (listening, replayed) = state.withLock { ($0.listening, $0.replayed) }
        guard let replayed else { return try await run(.rider, .writer, .readerDown, onWriter) }
        // A reader that is not a standby (a `prefer-standby` URL that fell back to a primary) is no replica to
        // check a replay position on.
        guard replayed != .end else { return try await run(.rider, .writer, .readerNotStandby, onWriter) }
        guard listening else { return try await run(.rider, .writer, .feedNotListening, onWriter) }
        guard await pass(barrier) else { return try await run(.rider, .writer, .barrierFailed, onWriter) }
        // The serving connection must have replayed what the sample saw, not only the rider's own requirement:
        // the sample drops requirements it satisfies, and a connection on another, lagging standby than the
        // sampler's must not pass for having replayed anything at all.
        let required = state.withLock { state -> WALPosition? in
            guard let replayed = state.replayed else { return nil }
            var required = state.floor
            if let rider = state.requirements[riderID] { required = max(required, rider) }
            return replayed >= required ? replayed : nil
        }
        guard let required else { return try await run(.rider, .writer, .riderNotReplayed, onWriter) }
        // Only the reader's connection checks its replay position: the writer has everything.
        return try await onReader(.rider, reader) { pool in
            try await body(RoutedReads(pool: pool, requiredReplay: pool === reader ? required : nil))
        }
    }

    /// Runs an analyst read on `reader` while the replica is up, else on `writer`: the analyst API's own
    /// pools, so analyst queries never take rider or write connections.
    func analystRead<T>(
        writer: PostgresConnectionPool, reader: PostgresConnectionPool?,
        _ body: (PostgresConnectionPool) async throws -> T
    ) async throws -> T {
        guard let reader else { return try await run(.analyst, .writer, .noReader, body, pool: writer) }
        guard state.withLock({ $0.replayed != nil }) else {
            return try await run(.analyst, .writer, .readerDown, body, pool: writer)
        }
        return try await onReader(.analyst, reader, body, fallback: writer)
    }

    private func onReader<T>(
        _ read: ReadRoutingMetrics.Read, _ reader: PostgresConnectionPool,
        _ body: (PostgresConnectionPool) async throws -> T, fallback: PostgresConnectionPool? = nil
    ) async throws -> T {
        let reason: ReadRoutingMetrics.Reason
        do {
            return try await run(read, .reader, .replicaReady, body, pool: reader)
        } catch is ReplicaBehind {
            readerBehind.increment()
            reason = .readerBehind
        } catch let error as PostgresError where error.isConnectionProblem {
            logger.notice("reader unavailable; reading from the writer", metadata: ["error": "\(error.message)"])
            reason = .readerFailed
        } catch let error as PostgresPoolError {
            logger.notice("reader pool unavailable; reading from the writer", metadata: ["error": "\(error)"])
            reason = .readerFailed
        }
        return try await run(read, .writer, reason, body, pool: fallback)
    }

    private func run<T>(
        _ read: ReadRoutingMetrics.Read, _ target: Target, _ reason: ReadRoutingMetrics.Reason,
        _ body: (PostgresConnectionPool) async throws -> T, pool: PostgresConnectionPool? = nil
    ) async throws -> T {
        state.withLock {
            switch target {
            case .writer: $0.statistics.writerReads += 1
            case .reader: $0.statistics.readerReads += 1
            }
        }
        (target == .writer ? writerReads : readerReads).increment()
        routing.count(read, to: target, because: reason)
        return try await body(pool ?? writer)
    }

    /// Passes the change-feed barrier, timing the wait.
    private func pass(_ barrier: ChangeFeedBarrier) async -> Bool {
        let start = ContinuousClock.now
        let passed = await barrier.pass()
        let waited = ContinuousClock.now - start
        routing.barrier.record(duration: waited)
        if let tracer, let context = ServiceContext.current {
            tracer.recordSpan(
                "read_your_writes.barrier", context: context, lasting: waited,
                attributes: ["trip_history.barrier.passed": .bool(passed)])
        }
        return passed
    }

    /// Waits until the reader's sampled replay position reaches `position`, checking every 10 ms; true at once
    /// without a reader, while it is down (reads then go to the writer) or when it is no standby, false after
    /// `timeout`.
    func awaitReaderReplay(of position: WALPosition, timeout: Duration) async -> Bool {
        guard reader != nil else { return true }
        let deadline = ContinuousClock.now + timeout
        while true {
            guard let replayed = state.withLock({ $0.replayed }), replayed != .end, replayed < position else {
                return true
            }
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    // MARK: The change listener's reports

    /// A trip of `riderID` committed at or before `position`; nil for "any rider", and at (re)start of the
    /// feed with the writer's position then, since changes made while it was not listening were not announced.
    public func changeCommitted(riderID: RiderID?, at position: WALPosition) {
        state.withLock { state in
            guard let riderID else {
                state.raiseFloor(to: position)
                return
            }
            if state.requirements[riderID] == nil && state.requirements.count >= maximumTrackedRiders {
                state.raiseFloor(to: position)
            } else {
                state.requirements[riderID] = max(state.requirements[riderID] ?? .zero, position)
            }
        }
    }

    /// The listener listens again (after `changeCommitted(riderID: nil, ...)` with the writer's position).
    public func feedListening() {
        state.withLock { $0.listening = true }
    }

    /// The listener lost its connection: notifications may be missed, so rider reads go to the writer.
    public func feedLost() {
        state.withLock { $0.listening = false }
        barrier?.fail()
    }

    /// The listener received `payload` on `barrierChannel`.
    public func barrierReceived(_ payload: String) {
        barrier?.received(payload)
    }

    /// The reader's replay position (`.end` for a server not in recovery), or nil when it cannot be reached.
    /// Drops the requirements it satisfies.
    public func replicaSampled(replayed: WALPosition?) {
        state.withLock { state in
            state.replayed = replayed
            guard let replayed else { return }
            if state.floor != .end && state.floor <= replayed { state.floor = .zero }
            if !state.requirements.isEmpty { state.requirements = state.requirements.filter { $0.value > replayed } }
        }
    }
}

extension PostgresReadRouting: ChangeFeedFence {
    /// Passes the change-feed barrier (batched with concurrent calls); false while the feed is not listening,
    /// without a barrier, or when the barrier fails or times out.
    public func awaitCurrent() async -> Bool {
        guard let barrier, state.withLock({ $0.listening }) else { return false }
        return await pass(barrier)
    }
}

/// The pool a rider read was routed to, with the replay position the connection serving it must have reached
/// (nil on the writer).
public struct RoutedReads: Sendable {
    let pool: PostgresConnectionPool
    let requiredReplay: WALPosition?

    init(pool: PostgresConnectionPool, requiredReplay: WALPosition? = nil) {
        self.pool = pool
        self.requiredReplay = requiredReplay
    }

    /// `PostgresConnectionPool.read(_:requiredReplay:)` with this route's requirement.
    func read<Statement: PostgresStatement>(
        _ statement: Statement
    ) async throws -> [Statement.Row] where Statement.Row: Sendable {
        try await pool.read(statement, requiredReplay: requiredReplay)
    }

    /// `PostgresConnectionPool.readFirst(_:requiredReplay:)` with this route's requirement.
    func readFirst<Statement: PostgresStatement>(
        _ statement: Statement
    ) async throws -> Statement.Row? where Statement.Row: Sendable {
        try await pool.readFirst(statement, requiredReplay: requiredReplay)
    }
}
