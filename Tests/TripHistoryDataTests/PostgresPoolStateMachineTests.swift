import Testing

@testable import TripHistoryData

/// Each transition of the pool's state machine, with connections and waiters as plain values: no PostgreSQL,
/// no thread, no clock but the instants the tests pass.
@Suite struct PostgresPoolStateMachineTests {
    /// Connections and waiters named by strings.
    typealias Machine = PostgresPoolStateMachine<String, String>

    /// The instant that the tests' waits and ticks are offsets from.
    static let start = ContinuousClock.now

    /// A machine with no connection counted, at `start`.
    static func machine(
        size: Int = 1, maximumWaiters: Int = 4, acquireTimeout: Duration = .seconds(2), idleTimeout: Duration? = nil
    ) -> Machine {
        Machine(
            size: size, maximumWaiters: maximumWaiters, acquireTimeout: acquireTimeout, idleTimeout: idleTimeout,
            now: start)
    }

    /// Takes every connection of `machine` (opened, as a first caller would) and returns their names.
    @discardableResult
    static func lendAll(_ machine: inout Machine) -> [String] {
        (0..<machine.size).map { index in
            #expect(machine.acquire() == .open)
            return "c\(index)"
        }
    }

    /// Queues `waiter` at `now` behind the connections, all lent; returns its id.
    @discardableResult
    static func queue(
        _ waiter: String, _ machine: inout Machine, at now: ContinuousClock.Instant = start
    ) -> Machine.WaiterID? {
        guard case .wait(let id) = machine.acquire() else {
            Issue.record("\(waiter) was not told to wait")
            return nil
        }
        #expect(machine.wait(waiter, id: id, now: now, isCancelled: false) == .queued)
        return id
    }

    @Test func anAcquireOpensWhileBelowTheSizeThenLendsTheMostRecentlyReturnedIdleConnection() {
        var machine = Self.machine(size: 2)
        #expect(machine.acquire() == .open)
        #expect(machine.acquire() == .open)
        #expect(machine.open == 2)
        #expect(machine.connectionReturned("c0") == .none)
        #expect(machine.connectionReturned("c1") == .none)
        #expect(machine.idleCount == 2)
        #expect(machine.acquire() == .lend("c1"))
        #expect(machine.connectionReturned("c1") == .none)
        #expect(machine.acquire() == .lend("c1"), "the connection returned last is lent first")
        #expect(machine.acquire() == .lend("c0"))
        #expect(machine.open == 2 && machine.idleCount == 0 && machine.waiting == 0)
    }

    @Test func anAcquireWaitsWhenEveryConnectionIsLent() {
        var machine = Self.machine(size: 1)
        Self.lendAll(&machine)
        guard case .wait(let first) = machine.acquire(), case .wait(let second) = machine.acquire() else {
            Issue.record("a caller beyond the size was not told to wait")
            return
        }
        #expect(first != second, "each waiter has an id of its own")
        #expect(machine.wait("w1", id: first, now: Self.start, isCancelled: false) == .queued)
        #expect(machine.waiting == 1)
        #expect(machine.open == 1, "waiting opens nothing")
    }

    @Test func aConnectionBackBeforeTheCallerQueuesIsLentToItRatherThanQueued() {
        var machine = Self.machine(size: 1)
        Self.lendAll(&machine)
        guard case .wait(let id) = machine.acquire() else {
            Issue.record("not told to wait")
            return
        }
        #expect(machine.connectionReturned("c0") == .none)
        #expect(machine.wait("w1", id: id, now: Self.start, isCancelled: false) == .lend("c0", to: "w1"))
        #expect(machine.waiting == 0)

        // Likewise a slot freed in between lets the caller open a connection.
        guard case .wait(let next) = machine.acquire() else {
            Issue.record("not told to wait")
            return
        }
        #expect(machine.connectionLost() == .none)
        #expect(machine.wait("w2", id: next, now: Self.start, isCancelled: false) == .open(for: "w2"))
        #expect(machine.open == 1)
    }

    @Test func aReturnedConnectionGoesToTheOldestWaiter() {
        var machine = Self.machine(size: 1)
        Self.lendAll(&machine)
        Self.queue("w1", &machine)
        Self.queue("w2", &machine)
        #expect(machine.connectionReturned("c0") == .lend("c0", to: "w1"))
        #expect(machine.connectionReturned("c0") == .lend("c0", to: "w2"))
        #expect(machine.connectionReturned("c0") == .none, "with nobody waiting it is idle")
        #expect(machine.idleCount == 1 && machine.open == 1 && machine.waiting == 0)
    }

    @Test func aWaiterTimesOutOnTheFirstTickAfterItsAcquireTimeout() {
        var machine = Self.machine(size: 1, acquireTimeout: .seconds(2))
        Self.lendAll(&machine)
        Self.queue("w1", &machine, at: Self.start)
        Self.queue("w2", &machine, at: Self.start + .seconds(1))
        #expect(machine.tick(now: Self.start + .milliseconds(1_999)) == .init(waiting: 2))
        #expect(machine.tick(now: Self.start + .seconds(2)) == .init(timedOut: ["w1"], waiting: 1))
        #expect(machine.tick(now: Self.start + .seconds(5)) == .init(timedOut: ["w2"], waiting: 0))
        #expect(machine.connectionReturned("c0") == .none, "no waiter is left to lend it to")
        #expect(Machine.Failure.timedOut.error as? PostgresPoolError == .acquireTimeout)
    }

    @Test func aCallerBeyondMaximumWaitersIsShedAtOnce() {
        var machine = Self.machine(size: 1, maximumWaiters: 2)
        Self.lendAll(&machine)
        Self.queue("w1", &machine)
        Self.queue("w2", &machine)
        guard case .wait(let id) = machine.acquire() else {
            Issue.record("not told to wait")
            return
        }
        #expect(machine.wait("w3", id: id, now: Self.start, isCancelled: false) == .fail("w3", .shed))
        #expect(machine.waiting == 2, "the shed caller never queued")
        #expect(Machine.Failure.shed.error as? PostgresPoolError == .overloaded)
        #expect(machine.connectionReturned("c0") == .lend("c0", to: "w1"))

        // With no waiting allowed, every caller that finds the connections lent is shed.
        var refusing = Self.machine(size: 1, maximumWaiters: 0)
        Self.lendAll(&refusing)
        guard case .wait(let refused) = refusing.acquire() else {
            Issue.record("not told to wait")
            return
        }
        #expect(refusing.wait("w1", id: refused, now: Self.start, isCancelled: false) == .fail("w1", .shed))
    }

    @Test func aConnectionLostWhileLentIsReplacedForTheWaitersAndItsSlotFreedWithoutThem() {
        var machine = Self.machine(size: 2)
        Self.lendAll(&machine)
        Self.queue("w1", &machine)
        Self.queue("w2", &machine)
        #expect(machine.connectionLost() == .open(for: "w1"), "the oldest waiter opens the replacement")
        #expect(machine.open == 2, "the replacement takes the lost connection's slot")
        #expect(machine.connectionReturned("c1") == .lend("c1", to: "w2"))
        // The replacement could not be opened: with nobody waiting the slot is free, and the next caller opens.
        #expect(machine.connectionLost() == .none)
        #expect(machine.open == 1)
        #expect(machine.acquire() == .open)
        #expect(machine.open == 2)
    }

    @Test func idleConnectionsCloseOnTheFirstTickAfterTheIdleTimeout() {
        var machine = Self.machine(size: 3, idleTimeout: .seconds(10))
        Self.lendAll(&machine)
        #expect(machine.connectionReturned("c0") == .none)
        #expect(machine.tick(now: Self.start + .seconds(5)) == .init())
        #expect(machine.connectionReturned("c1") == .none)
        #expect(machine.tick(now: Self.start + .milliseconds(9_999)) == .init())
        #expect(machine.tick(now: Self.start + .seconds(10)) == .init(expired: ["c0"]))
        #expect(machine.open == 2 && machine.idleCount == 1)
        #expect(machine.tick(now: Self.start + .seconds(15)) == .init(expired: ["c1"]))
        #expect(machine.open == 1 && machine.idleCount == 0, "the lent connection stays")
        #expect(machine.acquire() == .open, "a closed connection's slot is free again")
    }

    @Test func withoutAnIdleTimeoutIdleConnectionsStayOpen() {
        var machine = Self.machine(size: 1, idleTimeout: nil)
        Self.lendAll(&machine)
        #expect(machine.connectionReturned("c0") == .none)
        #expect(machine.tick(now: Self.start + .seconds(86_400)) == .init())
        #expect(machine.acquire() == .lend("c0"))
    }

    @Test func aCancelledWaiterIsFailedOnceAndACancelledCallerNeverQueues() {
        var machine = Self.machine(size: 1)
        Self.lendAll(&machine)
        guard let first = Self.queue("w1", &machine), let second = Self.queue("w2", &machine) else { return }
        #expect(machine.cancelWaiter(second) == .fail("w2", .cancelled))
        #expect(machine.cancelWaiter(second) == .none, "it left the wait list already")
        #expect(machine.waiting == 1)
        #expect(machine.connectionReturned("c0") == .lend("c0", to: "w1"))
        #expect(machine.cancelWaiter(first) == .none, "a waiter that got its connection keeps it")
        guard case .wait(let third) = machine.acquire() else {
            Issue.record("not told to wait")
            return
        }
        #expect(machine.wait("w3", id: third, now: Self.start, isCancelled: true) == .fail("w3", .cancelled))
        #expect(machine.waiting == 0)
        #expect(Machine.Failure.cancelled.error is CancellationError)
    }

    @Test func aShutdownFailsEveryWaiter() {
        var machine = Self.machine(size: 2)
        Self.lendAll(&machine)
        Self.queue("w1", &machine)
        Self.queue("w2", &machine)
        #expect(machine.shutdown() == .shutDown(failing: ["w1", "w2"], closing: []))
        #expect(machine.waiting == 0)
        #expect(machine.connectionReturned("c0") == .close("c0"), "nobody waits for it any more")
        #expect(machine.shutdown() == .none, "a second shutdown does nothing")
        #expect(Machine.Failure.shutdown.error as? PostgresPoolError == .shutdown)
    }

    @Test func afterAShutdownIdleConnectionsCloseAtOnceAndLentOnesAsTheyComeBack() {
        var machine = Self.machine(size: 3)
        Self.lendAll(&machine)
        #expect(machine.connectionReturned("c2") == .none)
        #expect(machine.shutdown() == .shutDown(failing: [], closing: ["c2"]))
        #expect(machine.open == 2, "the lent connections stay counted until they come back")
        #expect(machine.connectionReturned("c0") == .close("c0"))
        #expect(machine.connectionLost() == .none)
        #expect(machine.open == 0 && machine.idleCount == 0)
        #expect(machine.acquire() == .fail(.shutdown))
        #expect(machine.tick(now: Self.start + .seconds(1)) == nil, "the timer stops")
    }

    @Test func aCallerToldToWaitBeforeTheShutdownIsFailedRatherThanQueued() {
        var machine = Self.machine(size: 1)
        Self.lendAll(&machine)
        guard case .wait(let id) = machine.acquire() else {
            Issue.record("not told to wait")
            return
        }
        _ = machine.shutdown()
        #expect(machine.wait("w1", id: id, now: Self.start, isCancelled: false) == .fail("w1", .shutdown))
        #expect(machine.waiting == 0)
    }
}
