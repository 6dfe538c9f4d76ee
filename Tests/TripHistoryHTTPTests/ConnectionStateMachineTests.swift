import NIOCore
import Testing
import TripHistoryAPI

@testable import TripHistoryHTTP

/// The connection guards' rules, event by event, without a channel: what passes, what is refused and when,
/// and when the timer closes a connection.
@Suite struct ConnectionStateMachineTests {
    /// A tick of one second: head and body 4 ticks, idle 8, the body deadline 12, write windows of 4 ticks in
    /// which a client must take 4,000 bytes, targets of at most 64 bytes (request lines of at most 96).
    private static let limits = ConnectionLimits(
        headTimeout: .seconds(4), idleTimeout: .seconds(8), bodyTimeout: .seconds(4), bodyDeadline: .seconds(12),
        writeTimeout: .seconds(4), minimumWriteRate: 1000, maximumTargetBytes: 64)

    private static func machine() -> ConnectionStateMachine {
        ConnectionStateMachine(limits: limits)
    }

    /// Fires the timer until it asks for something other than another tick; returns that and the ticks fired.
    private static func firstAction(
        _ machine: inout ConnectionStateMachine, within ticks: Int = 100, buffered: (Int) -> Int = { _ in 0 }
    ) -> (ConnectionStateMachine.TimerAction, Int) {
        for tick in 1...ticks {
            let action = machine.timerFired(bufferedBytes: buffered(tick))
            if action != .tick { return (action, tick) }
        }
        return (.tick, ticks)
    }

    /// A request read whole: its bytes, head and end.
    private static func request(_ machine: inout ConnectionStateMachine, target: String = "/v1/trips") {
        #expect(machine.bytesRead(ByteBuffer(string: "GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")) == .pass)
        #expect(machine.headDecoded(targetBytes: target.utf8.count) == .pass)
        #expect(machine.endDecoded() == .pass)
    }

    @Test func aConnectionWithNoRequestClosesAfterTheHeadTimeoutThenAfterTheIdleTimeout() {
        var machine = Self.machine()
        let (first, ticks) = Self.firstAction(&machine)
        #expect(first == .close(.idle))
        #expect(ticks == 5)

        var served = Self.machine()
        Self.request(&served)
        #expect(Self.firstAction(&served, within: 20) == (.tick, 20), "a request in flight is never idle")
        #expect(served.responseEnded() == nil)
        let (idle, idleTicks) = Self.firstAction(&served)
        #expect(idle == .close(.idle))
        #expect(idleTicks == 9)
    }

    @Test func aHeadThatStopsArrivingIsAnswered408AndTheConnectionClosedAfterwards() {
        var machine = Self.machine()
        #expect(machine.bytesRead(ByteBuffer(string: "GET /v1/tr")) == .pass)
        let (action, ticks) = Self.firstAction(&machine)
        #expect(action == .raise(.headTimeout))
        #expect(ticks == 5)
        #expect(machine.isRefusing)
        #expect(machine.bytesRead(ByteBuffer(string: "ips HTTP/1.1\r\n")) == .drop)
        #expect(machine.refuse(.requestTimeout) == .requestTimeout)
        #expect(machine.inputClosed(), "a client closing its side after the refusal closes the connection")
        #expect(Self.firstAction(&machine).0 == .close(.refused))
    }

    @Test func aRequestLineOverTheTargetLimitIsRefusedBeforeItEnds() {
        var machine = Self.machine()
        #expect(machine.bytesRead(ByteBuffer(string: "GET /" + String(repeating: "a", count: 80))) == .pass)
        #expect(machine.bytesRead(ByteBuffer(string: String(repeating: "a", count: 20))) == .raise(.targetTooLong))
        #expect(machine.bytesRead(ByteBuffer(string: " HTTP/1.1\r\n")) == .drop)

        var fits = Self.machine()
        #expect(fits.bytesRead(ByteBuffer(string: "GET /\(String(repeating: "a", count: 60)) HTTP/1.1\r\n")) == .pass)
        #expect(
            fits.bytesRead(ByteBuffer(string: String(repeating: "h", count: 500))) == .pass, "headers are the decoder's"
        )
    }

    @Test func aDecodedTargetOverTheLimitIsRefusedAtOnceOrAfterTheResponsesInFlight() {
        let tooLong = 65
        var idle = Self.machine()
        #expect(idle.headDecoded(targetBytes: tooLong) == .refuse(.uriTooLong(limit: 64)))
        #expect(idle.bodyDecoded() == .drop)

        var busy = Self.machine()
        Self.request(&busy)
        #expect(busy.headDecoded(targetBytes: tooLong) == .drop, "a response is still in flight")
        #expect(busy.endDecoded() == .drop)
        #expect(busy.responseEnded() == .uriTooLong(limit: 64), "the refusal follows the earlier response")
    }

    @Test func aRefusalIsAnsweredOnce() {
        var machine = Self.machine()
        #expect(machine.capReached() == .tooManyConnections)
        #expect(machine.capReached() == nil)
        #expect(machine.refuse(.tooManyConnections) == .tooManyConnections)
        #expect(machine.refuse(.malformedRequest) == nil)
        #expect(machine.headDecoded(targetBytes: 1) == .drop)
    }

    @Test func aBodyThatStopsOrTricklesIsCut() {
        var stalled = Self.machine()
        #expect(stalled.bytesRead(ByteBuffer(string: "POST /v1/trips HTTP/1.1\r\n\r\n")) == .pass)
        #expect(stalled.headDecoded(targetBytes: 9) == .pass)
        let (stop, stopTicks) = Self.firstAction(&stalled)
        #expect(stop == .close(.bodyStalled))
        #expect(stopTicks == 5)

        var trickling = Self.machine()
        #expect(trickling.headDecoded(targetBytes: 9) == .pass)
        var action = ConnectionStateMachine.TimerAction.tick
        var ticks = 0
        while action == .tick, ticks < 100 {
            #expect(trickling.bytesRead(ByteBuffer(string: "x")) == .pass)
            action = trickling.timerFired(bufferedBytes: 0)
            ticks += 1
        }
        #expect(action == .close(.bodyIncomplete))
        #expect(ticks == 13)
    }

    @Test func aClientThatHoldsAResponseBackMustTakeTheMinimumRate() {
        var slow = Self.machine()
        Self.request(&slow)
        slow.writabilityChanged(writable: false)
        // 500 bytes a tick: 2,000 per window of four ticks, under the 4,000 asked.
        let (cut, ticks) = Self.firstAction(&slow, buffered: { 100_000 - 500 * $0 })
        #expect(cut == .close(.slowReader))
        #expect(ticks == 5)

        var steady = Self.machine()
        Self.request(&steady)
        steady.writabilityChanged(writable: false)
        #expect(Self.firstAction(&steady, within: 40, buffered: { 100_000 - 1_500 * $0 }) == (.tick, 40))

        var writable = Self.machine()
        Self.request(&writable)
        writable.writabilityChanged(writable: false)
        writable.writabilityChanged(writable: true)
        #expect(Self.firstAction(&writable, within: 40, buffered: { _ in 100_000 }) == (.tick, 40))
    }
}
