public import CoreMetrics
import Foundation
public import Logging
import Metrics
import Synchronization
public import Tracing
public import TripHistoryDomain

/// Chooses the database target of each read: the writer (`DATABASE_URL`) or, when one is configured and
/// safe for the read, the reader (`DATABASE_READ_URL`, usually a streaming standby). It decides and counts;
/// what each rider must see is kept by `ReadYourWrites`, and the change-feed barrier with the listener's state
/// by `ListenedBarrier`.
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

    public let writer: PostgresConnectionPool
    public let reader: PostgresConnectionPool?
    /// The channel the barrier tokens are NOTIFYed on; unique to this instance.
    public let barrierChannel: String
    private let readYourWrites: ReadYourWrites
    private let barrier: ListenedBarrier?
    private let statisticsState = Mutex(Statistics())
    private let writerReads: Counter
    private let readerReads: Counter
    private let readerBehind: Counter
    private let routing: ReadRoutingMetrics
    private let logger: Logger

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
        self.writer = writer
        self.reader = reader
        self.barrierChannel = "trip_history_barrier_" + String(UInt64.random(in: 1...UInt64.max), radix: 16)
        readYourWrites = ReadYourWrites(maximumTrackedRiders: maximumTrackedRiders)
        self.logger = logger
        writerReads = Counter(
            label: "trip_history_db_reads_total", dimensions: [("target", Target.writer.rawValue)],
            factory: metricsFactory)
        readerReads = Counter(
            label: "trip_history_db_reads_total", dimensions: [("target", Target.reader.rawValue)],
            factory: metricsFactory)
        readerBehind = Counter(label: "trip_history_db_reader_behind_total", factory: metricsFactory)
        let routing = ReadRoutingMetrics(factory: metricsFactory)
        self.routing = routing
        if reader != nil || fencesChanges {
            let channel = barrierChannel
            let notify = ChangeFeedBarrier(timeout: barrierTimeout) { token in
                try await writer.withConnection { connection in
                    try connection.execute(unsafeSQL: "SELECT pg_notify('\(channel)', '\(token)')")
                }
            }
            barrier = ListenedBarrier(barrier: notify, duration: routing.barrier, tracer: tracer)
        } else {
            barrier = nil
        }
    }

    public var statistics: Statistics { statisticsState.withLock { $0 } }

    /// Whether the last sample reached the reader; false also when none is configured.
    public var isReaderUp: Bool { readYourWrites.isReaderUp }

    /// Runs a read of `riderID`'s trips on a target that has every trip of the rider acknowledged before the
    /// call.
    func riderRead<T>(_ riderID: RiderID, _ body: (RoutedReads) async throws -> T) async throws -> T {
        let onWriter: (PostgresConnectionPool) async throws -> T = { try await body(RoutedReads(pool: $0)) }
        guard let reader, let barrier else { return try await run(.rider, .writer, .noReader, onWriter) }
        if let unusable = readYourWrites.readerUnusable { return try await run(.rider, .writer, unusable, onWriter) }
        guard barrier.isListening else { return try await run(.rider, .writer, .feedNotListening, onWriter) }
        guard await barrier.pass() else { return try await run(.rider, .writer, .barrierFailed, onWriter) }
        guard let required = readYourWrites.requiredReplay(for: riderID) else {
            return try await run(.rider, .writer, .riderNotReplayed, onWriter)
        }
        // Only the reader's connection checks its replay position: the writer has everything.
        return try await onReader(.rider, reader) { pool in
            try await body(RoutedReads(pool: pool, requiredReplay: pool === reader ? required : nil))
        }
    }

    /// Runs an analyst read on `reader` while the replica is up, else on `writer`: the analyst API's own
    /// pools, so analyst queries never take rider or write connections. On the reader, `body` is given the
    /// replay position its connection must have reached (`.end`: it must be no standby), the last sample's:
    /// an erasure returns only once the sample has passed it, so a connection that has reached the sample
    /// never shows the erased rider, even when a multi-host reader URL put it on another, lagging node. A
    /// connection behind it throws `ReplicaBehind`, and the writer serves the read.
    func analystRead<T>(
        writer: PostgresConnectionPool, reader: PostgresConnectionPool?,
        _ body: (PostgresConnectionPool, WALPosition?) async throws -> T
    ) async throws -> T {
        let onWriter: (PostgresConnectionPool) async throws -> T = { try await body($0, nil) }
        guard let reader else { return try await run(.analyst, .writer, .noReader, onWriter, pool: writer) }
        guard let required = readYourWrites.sampledReplay else {
            return try await run(.analyst, .writer, .readerDown, onWriter, pool: writer)
        }
        return try await onReader(.analyst, reader, fallback: writer) { pool in
            try await body(pool, pool === reader ? required : nil)
        }
    }

    private func onReader<T>(
        _ read: ReadRoutingMetrics.Read, _ reader: PostgresConnectionPool, fallback: PostgresConnectionPool? = nil,
        _ body: (PostgresConnectionPool) async throws -> T
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
        statisticsState.withLock {
            switch target {
            case .writer: $0.writerReads += 1
            case .reader: $0.readerReads += 1
            }
        }
        (target == .writer ? writerReads : readerReads).increment()
        routing.count(read, to: target, because: reason)
        return try await body(pool ?? writer)
    }

    // MARK: Rider reads the sharded topology routes itself (`ShardStandbyReads`), counted and retried alike

    /// Runs a rider read on the writer, counted with `reason`.
    func riderReadOnWriter<T>(
        because reason: ReadRoutingMetrics.Reason, _ body: (PostgresConnectionPool) async throws -> T
    ) async throws -> T {
        try await run(.rider, .writer, reason, body)
    }

    /// Runs a rider read on the reader, retried on the writer as every reader read is: after `ReplicaBehind`
    /// or a connection or pool failure.
    func riderReadOnReader<T>(_ body: (PostgresConnectionPool) async throws -> T) async throws -> T {
        guard let reader else { return try await run(.rider, .writer, .noReader, body) }
        return try await onReader(.rider, reader, body)
    }

    /// Whether the change listener listens, so that the barrier can prove what was announced.
    var isFeedListening: Bool { barrier?.isListening ?? false }

    /// Waits until the reader's sampled replay position reaches `position`, checking every 10 ms; true at once
    /// without a reader, while it is down (reads then go to the writer) or when it is no standby, false after
    /// `timeout`.
    func awaitReaderReplay(of position: WALPosition, timeout: Duration) async -> Bool {
        guard reader != nil else { return true }
        let deadline = ContinuousClock.now + timeout
        while true {
            guard let replayed = readYourWrites.standbyReplayed, replayed < position else { return true }
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    // MARK: The change listener's and the lag sampler's reports, passed to the part that keeps each

    /// A trip of `riderID` committed at or before `position`; nil for "any rider", and at (re)start of the
    /// feed with the writer's position then, since changes made while it was not listening were not announced.
    public func changeCommitted(riderID: RiderID?, at position: WALPosition) {
        readYourWrites.changeCommitted(riderID: riderID, at: position)
    }

    /// The listener listens again (after `changeCommitted(riderID: nil, ...)` with the writer's position).
    public func feedListening() {
        barrier?.listenerStarted()
    }

    /// The listener lost its connection: notifications may be missed, so rider reads go to the writer.
    public func feedLost() {
        barrier?.listenerLost()
    }

    /// The listener received `payload` on `barrierChannel`.
    public func barrierReceived(_ payload: String) {
        barrier?.received(payload)
    }

    /// The reader's replay position (`.end` for a server not in recovery), or nil when it cannot be reached.
    public func replicaSampled(replayed: WALPosition?) {
        readYourWrites.replicaSampled(replayed: replayed)
    }
}

extension PostgresReadRouting: ChangeFeedFence {
    /// Passes the change-feed barrier (batched with concurrent calls); false while the feed is not listening,
    /// without a barrier, or when the barrier fails or times out.
    public func awaitCurrent() async -> Bool {
        guard let barrier, barrier.isListening else { return false }
        return await barrier.pass()
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
