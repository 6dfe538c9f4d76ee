/// The bookkeeping of `PostgresConnectionPool` as a value, in the manner of postgres-nio's `PoolStateMachine`:
/// each mutating method takes one event (a caller asks for a connection, a connection comes back or is lost,
/// the pool's timer ticks, a waiter is cancelled, the pool shuts down) and returns what the pool must do about
/// it (lend a connection to a caller, let a caller open a new one, fail a caller, close connections). It
/// performs no I/O, reads no clock and resumes nothing, so every transition is tested without PostgreSQL; the
/// pool keeps it under one lock and performs the actions after the lock is released.
///
/// At most `size` connections are counted at once: idle, lent, or being opened by the caller that was told to
/// open one. Idle connections are lent most recently returned first. Callers that find every connection counted
/// wait in arrival order, at most `maximumWaiters` of them, each for `acquireTimeout` at most.
///
/// Generic over the connection and over what stands for a waiting caller (the pool's continuations; plain
/// values in tests).
struct PostgresPoolStateMachine<Connection, Waiter> {
    /// A waiting caller's place, handed out by `acquire()` before the caller waits, so a cancellation can find
    /// it.
    struct WaiterID: Hashable, Sendable {
        let value: Int
    }

    /// Why a waiting caller is refused.
    enum Failure: Hashable, Sendable {
        /// The pool was shut down (`PostgresPoolError.shutdown`).
        case shutdown
        /// The wait list held `maximumWaiters` callers already (`PostgresPoolError.overloaded`; shed, `full`).
        case shed
        /// No connection came back within `acquireTimeout` (`PostgresPoolError.acquireTimeout`; shed,
        /// `timeout`).
        case timedOut
        /// The caller's task was cancelled (`CancellationError`).
        case cancelled

        /// The error the caller is resumed with.
        var error: any Error {
            switch self {
            case .shutdown: PostgresPoolError.shutdown
            case .shed: PostgresPoolError.overloaded
            case .timedOut: PostgresPoolError.acquireTimeout
            case .cancelled: CancellationError()
            }
        }
    }

    /// What to do for a caller that asked for a connection.
    enum AcquireAction {
        /// Lend it this idle connection.
        case lend(Connection)
        /// Let it open a new connection, already counted against `size`.
        case open
        /// Every connection is counted: the caller must wait, under this id (`wait(_:id:now:isCancelled:)`).
        case wait(WaiterID)
        /// Refuse it (the pool is shut down).
        case fail(PostgresPoolError)
    }

    /// What to do for a caller about to wait.
    enum WaitAction {
        /// It waits; a later event lends it a connection or fails it.
        case queued
        /// Resume it with this connection, which came back since it was told to wait.
        case lend(Connection, to: Waiter)
        /// Resume it with the right to open a new connection, already counted against `size`.
        case open(for: Waiter)
        /// Resume it with the failure's error.
        case fail(Waiter, Failure)
    }

    /// What to do when a lent connection comes back, or is lost.
    enum ReleaseAction {
        /// Nothing: the connection is idle now, or the slot of a lost one is free.
        case none
        /// Resume the oldest waiter with this connection.
        case lend(Connection, to: Waiter)
        /// Resume the oldest waiter with the right to open a new connection, which replaces the lost one.
        case open(for: Waiter)
        /// Close this connection: the pool was shut down while it was lent.
        case close(Connection)
    }

    /// What to do when a waiter's task is cancelled.
    enum CancelAction {
        /// Nothing: the waiter was already lent a connection or failed.
        case none
        /// Resume it with the failure's error (`cancelled`).
        case fail(Waiter, Failure)
    }

    /// What to do on a tick of the pool's timer.
    struct TickAction {
        /// The waiters whose acquire timeout has passed, oldest first: fail each with `timedOut`.
        var timedOut: [Waiter] = []
        /// The idle connections unused for `idleTimeout`, no longer counted: close them.
        var expired: [Connection] = []
        /// The callers still waiting, for the gauge.
        var waiting = 0
    }

    /// What to do when the pool shuts down.
    enum ShutdownAction {
        /// Nothing: it was shut down already.
        case none
        /// Fail every waiter with `shutdown` and close the idle connections. Lent connections are closed as they
        /// come back (`ReleaseAction.close`).
        case shutDown(failing: [Waiter], closing: [Connection])
    }

    /// An idle connection and the tick since which it has been idle.
    fileprivate struct Idle {
        let connection: Connection
        let since: ContinuousClock.Instant
    }

    /// A waiting caller and when its acquire timeout passes.
    fileprivate struct Waiting {
        let id: WaiterID
        let deadline: ContinuousClock.Instant
        let waiter: Waiter
    }

    /// Most connections counted at once.
    let size: Int
    /// Most callers waiting at once; one more is shed.
    let maximumWaiters: Int
    /// Longest wait of a caller.
    let acquireTimeout: Duration
    /// How long a connection may stay idle before a tick closes it; nil keeps idle connections open.
    let idleTimeout: Duration?

    /// Idle connections, the most recently returned last: lending pops the last one, so the ones that have
    /// been idle longest are a prefix.
    private var idle: [Idle] = []
    /// Connections counted against `size`: idle, lent, or being opened.
    private(set) var open = 0
    /// Waiting callers in arrival order. They share one timeout, so those whose deadline passed are a prefix.
    private var waiters: [Waiting] = []
    /// The id of the last caller told to wait.
    private var lastWaiterID = 0
    /// True once `shutdown()` was called; nothing is lent afterwards.
    private(set) var isShutdown = false
    /// The last tick. A returned connection counts as idle from here, so returning one reads no clock; its
    /// idle time is thereby counted up to one tick long.
    private var lastTick: ContinuousClock.Instant

    /// An empty pool at `now`, with no connection counted.
    init(
        size: Int, maximumWaiters: Int, acquireTimeout: Duration, idleTimeout: Duration? = nil,
        now: ContinuousClock.Instant
    ) {
        self.size = size
        self.maximumWaiters = maximumWaiters
        self.acquireTimeout = acquireTimeout
        self.idleTimeout = idleTimeout
        self.lastTick = now
    }

    /// Idle connections.
    var idleCount: Int { idle.count }

    /// Callers waiting.
    var waiting: Int { waiters.count }

    /// A caller asks for a connection: the most recently returned idle one, else the right to open one while
    /// fewer than `size` are counted, else a place to wait under a new id; refused once shut down.
    mutating func acquire() -> AcquireAction {
        if isShutdown { return .fail(.shutdown) }
        if let entry = idle.popLast() { return .lend(entry.connection) }
        if open < size {
            open += 1
            return .open
        }
        lastWaiterID += 1
        return .wait(WaiterID(value: lastWaiterID))
    }

    /// The caller `acquire()` told to wait, as `waiter`, at `now`. Since a connection may have come back in
    /// between, this checks again before it queues the caller; a caller whose task `isCancelled` is failed
    /// rather than queued, and one beyond `maximumWaiters` is shed. A queued caller fails `acquireTimeout`
    /// after `now` unless a connection comes back first.
    mutating func wait(
        _ waiter: Waiter, id: WaiterID, now: ContinuousClock.Instant, isCancelled: Bool
    ) -> WaitAction {
        if isShutdown { return .fail(waiter, .shutdown) }
        if isCancelled { return .fail(waiter, .cancelled) }
        if let entry = idle.popLast() { return .lend(entry.connection, to: waiter) }
        if open < size {
            open += 1
            return .open(for: waiter)
        }
        if waiters.count >= maximumWaiters { return .fail(waiter, .shed) }
        waiters.append(Waiting(id: id, deadline: now.advanced(by: acquireTimeout), waiter: waiter))
        return .queued
    }

    /// A lent connection comes back in good order: it goes to the oldest waiter, else it is idle; after a
    /// shutdown it is closed.
    mutating func connectionReturned(_ connection: Connection) -> ReleaseAction {
        if isShutdown {
            open -= 1
            return .close(connection)
        }
        if !waiters.isEmpty { return .lend(connection, to: waiters.removeFirst().waiter) }
        idle.append(Idle(connection: connection, since: lastTick))
        return .none
    }

    /// A lent connection broke, or one the pool let a caller open could not be opened, or a caller gave back
    /// unused the right to open one: the oldest waiter gets the right to open a replacement, else the slot is
    /// free.
    mutating func connectionLost() -> ReleaseAction {
        if !isShutdown, !waiters.isEmpty { return .open(for: waiters.removeFirst().waiter) }
        open -= 1
        return .none
    }

    /// The waiter with `id` was cancelled: it is failed unless it has left the wait list already.
    mutating func cancelWaiter(_ id: WaiterID) -> CancelAction {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return .none }
        return .fail(waiters.remove(at: index).waiter, .cancelled)
    }

    /// The pool's timer ticks at `now`: waiters whose acquire timeout passed are failed, connections idle for
    /// `idleTimeout` are closed. Nil once shut down: the timer stops.
    mutating func tick(now: ContinuousClock.Instant) -> TickAction? {
        guard !isShutdown else { return nil }
        lastTick = now
        var action = TickAction()
        let timedOut = waiters.prefix { $0.deadline <= now }.count
        if timedOut > 0 {
            action.timedOut = waiters.prefix(timedOut).map(\.waiter)
            waiters.removeFirst(timedOut)
        }
        if let idleTimeout {
            let expired = idle.prefix { $0.since.advanced(by: idleTimeout) <= now }.count
            if expired > 0 {
                action.expired = idle.prefix(expired).map(\.connection)
                idle.removeFirst(expired)
                open -= expired
            }
        }
        action.waiting = waiters.count
        return action
    }

    /// The pool shuts down: every waiter is failed and the idle connections are closed; connections still lent
    /// stay counted until they come back.
    mutating func shutdown() -> ShutdownAction {
        guard !isShutdown else { return .none }
        isShutdown = true
        let action = ShutdownAction.shutDown(failing: waiters.map(\.waiter), closing: idle.map(\.connection))
        open -= idle.count
        waiters = []
        idle = []
        return action
    }
}

extension PostgresPoolStateMachine: Sendable where Connection: Sendable, Waiter: Sendable {}
extension PostgresPoolStateMachine.AcquireAction: Sendable where Connection: Sendable {}
extension PostgresPoolStateMachine.WaitAction: Sendable where Connection: Sendable, Waiter: Sendable {}
extension PostgresPoolStateMachine.ReleaseAction: Sendable where Connection: Sendable, Waiter: Sendable {}
extension PostgresPoolStateMachine.CancelAction: Sendable where Waiter: Sendable {}
extension PostgresPoolStateMachine.TickAction: Sendable where Connection: Sendable, Waiter: Sendable {}
extension PostgresPoolStateMachine.ShutdownAction: Sendable where Connection: Sendable, Waiter: Sendable {}
extension PostgresPoolStateMachine.Idle: Sendable where Connection: Sendable {}
extension PostgresPoolStateMachine.Waiting: Sendable where Waiter: Sendable {}

// Comparable actions, so tests state the transitions they expect as values.
extension PostgresPoolStateMachine.AcquireAction: Equatable where Connection: Equatable {}
extension PostgresPoolStateMachine.WaitAction: Equatable where Connection: Equatable, Waiter: Equatable {}
extension PostgresPoolStateMachine.ReleaseAction: Equatable where Connection: Equatable, Waiter: Equatable {}
extension PostgresPoolStateMachine.CancelAction: Equatable where Waiter: Equatable {}
extension PostgresPoolStateMachine.TickAction: Equatable where Connection: Equatable, Waiter: Equatable {}
extension PostgresPoolStateMachine.ShutdownAction: Equatable where Connection: Equatable, Waiter: Equatable {}
