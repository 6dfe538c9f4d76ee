import Synchronization
import Testing

@testable import TripHistoryData

/// The parts of the read routing that need no database: WAL positions and the change-feed barrier.
@Suite struct ReadRoutingTests {
    @Test(arguments: [
        ("0/0", UInt64(0)), ("16/B374D848", UInt64(0x16_B374_D848)), ("FFFFFFFF/FFFFFFFF", UInt64.max),
    ])
    func walPositionsParseAndPrintAsPostgreSQLWritesThem(text: String, value: UInt64) {
        let position = WALPosition(text)
        #expect(position?.value == value)
        #expect(position?.description == text)
    }

    @Test(arguments: ["", "16", "16/", "/1", "G/1", "1/2/3", "100000000/0"])
    func walPositionsRefuseOtherText(text: String) {
        #expect(WALPosition(text) == nil)
    }

    /// Tokens sent, and a way to wait until a number of them have been.
    final class Sent: Sendable {
        private let tokens = Mutex<[UInt64]>([])
        func record(_ token: UInt64) { tokens.withLock { $0.append(token) } }
        var all: [UInt64] { tokens.withLock { $0 } }

        func until(_ count: Int) async throws {
            let deadline = ContinuousClock.now + .seconds(10)
            while all.count < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            #expect(all.count >= count)
        }
    }

    @Test func callsWhileATokenIsBeingSentShareTheNextOneAndPassWhenItIsReceived() async throws {
        let sent = Sent()
        let release = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let barrier = ChangeFeedBarrier(timeout: .seconds(60)) { token in
            sent.record(token)
            // The first send stays in flight until the test lets it go.
            if token == 1 { await withCheckedContinuation { continuation in release.withLock { $0 = continuation } } }
        }
        let first = Task { await barrier.pass() }
        try await sent.until(1)
        let joined = (0..<3).map { _ in Task { await barrier.pass() } }
        // Each joins token 2, which is sent only once token 1's send completes.
        try await Task.sleep(for: .milliseconds(50))
        #expect(sent.all == [1])
        while release.withLock({ $0 == nil }) { try await Task.sleep(for: .milliseconds(5)) }
        release.withLock { $0?.resume() }
        try await sent.until(2)
        #expect(sent.all == [1, 2])
        barrier.received("2")
        #expect(await first.value)
        for call in joined { #expect(await call.value) }
    }

    @Test func aLostFeedOrAnUnansweredTokenFailsTheCall() async throws {
        let quiet = ChangeFeedBarrier(timeout: .milliseconds(20)) { _ in }
        #expect(await quiet.pass() == false)

        let sent = Sent()
        let lost = ChangeFeedBarrier(timeout: .seconds(60)) { sent.record($0) }
        let call = Task { await lost.pass() }
        try await sent.until(1)
        lost.fail()
        #expect(await call.value == false)
        // A later call passes once its own token is received.
        let later = Task { await lost.pass() }
        try await sent.until(2)
        lost.received("1")
        lost.received("2")
        #expect(await later.value)
    }
}
