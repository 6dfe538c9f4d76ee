import Foundation
public import Logging
import NIOConcurrencyHelpers
public import ServiceLifecycle
public import Tracing
public import TripHistoryDomain

/// Listens on `channel` for the rider ids whose trips changed (`PostgresTripRepository.record` notifies
/// inside its transaction) and reports them, so every instance can drop its cached responses.
///
/// It owns one dedicated libpq connection, used only by its own thread: `LISTEN`, then `poll(2)` on the
/// socket and `PQconsumeInput`/`PQnotifies`. PostgreSQL delivers a notification at commit; the thread wakes
/// as soon as it arrives, so a change reaches `onChange` after network transit plus a thread wake-up —
/// typically well under 10 ms, and under 100 ms on a loaded host. `pollInterval` bounds only how long a
/// shutdown takes to be noticed.
///
/// Losing the connection loses notifications. The contract with the handlers is therefore:
/// `onDisconnected` runs as soon as the loss is detected: the socket closes or errors, TCP keepalives give
/// up on a silent peer (about 11 s), or a probe (`SELECT 1`), sent after `probeInterval` without a word from
/// the server, gets no answer within the connection's query timeout. The probe is what notices a server that
/// stopped while its host still acknowledges keepalives, for instance an old primary frozen while a standby
/// is promoted, whose notifications would never come. The listener then reconnects with backoff by itself, and
/// `onListening` runs only once `LISTEN` has succeeded again — also the first time. Whatever a handler
/// guards (a cache) must not be trusted from `onDisconnected` until `onListening`, and must be cleared at
/// `onListening` since changes made in between were never announced.
///
/// With a tracer, the listener's work is traced in root spans, since it belongs to no request: each
/// notification handled (`changes.invalidate` for a change, `changes.barrier` for a barrier), and each start
/// of listening, the first and every reconnection, with the handlers that clear what they guard
/// (`changes.resume`). No span carries a payload, so none carries a rider id.
public final class PostgresChangeListener: Service, Sendable {
    /// The channel `record` notifies; the payload is the rider id in decimal, on the sharded topology followed by
    /// a space and the rider's partition's position (`ShardStandbyReads.announced`).
    public static let channel = "trip_history_changes"

    private let connectionString: String
    private let applicationName: String
    private let pollInterval: Duration
    private let probeInterval: Duration
    private let logger: Logger
    private let onListening: @Sendable () -> Void
    private let onDisconnected: @Sendable () -> Void
    private let onChange: @Sendable (RiderID?) -> Void
    private let barrierChannel: String?
    private let onCommitted: (@Sendable (RiderID?, WALPosition) -> Void)?
    private let onBarrier: (@Sendable (String) -> Void)?
    private let onAnnounced: (@Sendable (String) -> Void)?
    private let tracer: (any Tracer)?
    private let keepsRoot: (@Sendable () -> Bool)?

    /// - Parameters:
    ///   - applicationName: the connection's `application_name`, so operators (and tests) can find it in
    ///     `pg_stat_activity`.
    ///   - onChange: the rider whose trips changed, or nil for a payload that is not a rider id (treat it as
    ///     "anything may have changed").
    ///   - onCommitted: called before `onChange` with the change and a WAL position at or past its commit, and
    ///     before `onListening` with nil and the writer's position then.
    ///   - onBarrier: each payload received on `barrierChannel`.
    ///   - onAnnounced: each payload received on `channel`, before `onChange`.
    ///   - tracer: traces the notifications handled and each start of listening; nil (the default) traces
    ///     nothing and costs nothing.
    ///   - keepsRoot: whether to trace one of those (the head sampler's decision); nil traces each.
    public init(
        connectionString: String, applicationName: String = "trip-history-listener",
        pollInterval: Duration = .milliseconds(100), probeInterval: Duration = .seconds(5), logger: Logger,
        onListening: @escaping @Sendable () -> Void, onDisconnected: @escaping @Sendable () -> Void,
        onChange: @escaping @Sendable (RiderID?) -> Void,
        barrierChannel: String? = nil, onCommitted: (@Sendable (RiderID?, WALPosition) -> Void)? = nil,
        onBarrier: (@Sendable (String) -> Void)? = nil, onAnnounced: (@Sendable (String) -> Void)? = nil,
        tracer: (any Tracer)? = nil, keepsRoot: (@Sendable () -> Bool)? = nil
    ) {
        self.tracer = tracer
        self.keepsRoot = keepsRoot
        self.barrierChannel = barrierChannel
        self.onCommitted = onCommitted
        self.onBarrier = onBarrier
        self.onAnnounced = onAnnounced
        self.connectionString = connectionString
        self.applicationName = applicationName
        self.pollInterval = pollInterval
        self.probeInterval = probeInterval
        self.logger = logger
        self.onListening = onListening
        self.onDisconnected = onDisconnected
        self.onChange = onChange
    }

    /// Listens until the task is cancelled or the application shuts down gracefully.
    public func run() async throws {
        await DedicatedThread.run(name: "PG-listener") { self.listen(until: $0) }
    }

    /// The blocking loop of the listener thread; the connection is opened, used and closed on this thread only.
    private func listen(until stop: NIOLockedValueBox<Bool>) {
        let pollMilliseconds = Int32(clamping: pollInterval.wholeMilliseconds)
        var connection: PostgresConnection?
        var retryMilliseconds: Int32 = 100
        var listenedBefore = false
        // When the server last answered on the connection: its LISTEN, a notification or a probe.
        var lastHeard = ContinuousClock.now
        while !stop.withLockedValue({ $0 }) {
            guard let current = connection else {
                let attempt = DefaultTracerClock.now
                do {
                    // TCP keepalives and a user timeout come with every connection
                    // (`PostgresConnection.networkSettings`); LISTEN is bounded by the query timeout.
                    let opened = try PostgresConnection(
                        connectionString: connectionString, applicationName: applicationName)
                    try opened.execute(unsafeSQL: "LISTEN \(Self.channel)")
                    if let barrierChannel { try opened.execute(unsafeSQL: "LISTEN \(barrierChannel)") }
                    let position = try onCommitted == nil ? nil : opened.walInsertPosition()
                    connection = opened
                    lastHeard = .now
                    retryMilliseconds = 100
                    logger.info("listening for trip changes", metadata: ["channel": "\(Self.channel)"])
                    // Dated from this attempt, so the span shows the time connecting took too.
                    traced(
                        "changes.resume", ofKind: .internal, at: attempt,
                        [Self.reconnectAttribute: .bool(listenedBefore)]
                    ) {
                        if let onCommitted, let position { onCommitted(nil, position) }
                        onListening()
                    }
                    listenedBefore = true
                } catch {
                    logger.warning(
                        "cannot listen for trip changes; retrying",
                        metadata: ["error": "\(error)", "retry_ms": "\(retryMilliseconds)"]
                    )
                    sleep(milliseconds: retryMilliseconds, slice: pollMilliseconds, unless: stop)
                    retryMilliseconds = min(retryMilliseconds * 2, 5_000)
                }
                continue
            }
            do {
                let received = try current.notifications(waitingUpTo: pollMilliseconds)
                if !received.isEmpty {
                    lastHeard = .now
                } else if ContinuousClock.now - lastHeard >= probeInterval {
                    try current.execute(unsafeSQL: "SELECT 1")
                    lastHeard = .now
                }
                var position: WALPosition?
                if onCommitted != nil, received.contains(where: { $0.channel == Self.channel }) {
                    // The writer's insert position: past the commit of every notification already received.
                    position = try current.walInsertPosition()
                }
                for notification in received {
                    if notification.channel == Self.channel {
                        let riderID = RiderID(notification.payload.prefix { $0 != " " })
                        traced(
                            "changes.invalidate", ofKind: .consumer,
                            [
                                Self.channelAttribute: .string(Self.channel),
                                Self.scopeAttribute: .string(riderID == nil ? "all" : "rider"),
                            ]
                        ) {
                            if let onCommitted, let position { onCommitted(riderID, position) }
                            onAnnounced?(notification.payload)
                            onChange(riderID)
                        }
                    } else if notification.channel == barrierChannel, let onBarrier {
                        traced(
                            "changes.barrier", ofKind: .consumer, [Self.channelAttribute: .string(notification.channel)]
                        ) {
                            onBarrier(notification.payload)
                        }
                    }
                }
            } catch {
                logger.warning("lost the trip change feed; reconnecting", metadata: ["error": "\(error)"])
                connection = nil
                onDisconnected()
            }
        }
    }

    /// The span attribute naming the channel a notification came on.
    static let channelAttribute = "trip_history.changes.channel"
    /// The span attribute saying what a change invalidates: `rider` (one rider's responses) or `all`.
    static let scopeAttribute = "trip_history.changes.scope"
    /// The span attribute saying whether listening resumed after a lost connection (false the first time).
    static let reconnectAttribute = "trip_history.changes.reconnect"

    /// Runs `body` in a root span `name` started at `start` with `attributes`, or just runs it when tracing
    /// is off, without building the attributes.
    private func traced(
        _ name: String, ofKind kind: SpanKind, at start: DefaultTracerClock.Instant = DefaultTracerClock.now,
        _ attributes: @autoclosure () -> SpanAttributes, _ body: () -> Void
    ) {
        guard let tracer, keepsRoot?() ?? true else { return body() }
        tracer.withSpan(name, context: .topLevel, ofKind: kind, at: start) { span in
            span.updateAttributes { $0.merge(attributes()) }
            body()
        }
    }

    private func sleep(milliseconds: Int32, slice: Int32, unless stop: NIOLockedValueBox<Bool>) {
        var remaining = milliseconds
        while remaining > 0, !stop.withLockedValue({ $0 }) {
            let step = min(remaining, max(slice, 1))
            usleep(UInt32(step) * 1_000)
            remaining -= step
        }
    }
}
