import Metrics
import Synchronization
import Tracing

/// The change-feed barrier as reads use it: passed only while the change listener listens, each wait timed
/// and, for a traced request, recorded as a span. Rider reads on the
/// reader pass it first, and so does every cached read under strict cache coherence (`ChangeFeedFence`).
final class ListenedBarrier: Sendable {
    private let barrier: ChangeFeedBarrier
    private let listening = Atomic(false)
    private let duration: Timer
    private let tracer: (any Tracer)?

    /// Each wait is recorded in `duration` (`ReadRoutingMetrics.barrier`).
    init(barrier: ChangeFeedBarrier, duration: Timer, tracer: (any Tracer)?) {
        self.barrier = barrier
        self.duration = duration
        self.tracer = tracer
    }

    /// Whether the listener listens: while it does not, notifications may be missed.
    var isListening: Bool { listening.load(ordering: .acquiring) }

    /// The listener listens again.
    func listenerStarted() {
        listening.store(true, ordering: .releasing)
    }

    /// The listener lost its connection: the barrier fails until it listens again.
    func listenerLost() {
        listening.store(false, ordering: .releasing)
        barrier.fail()
    }

    /// The listener received `payload` on the barrier channel.
    func received(_ payload: String) {
        barrier.received(payload)
    }

    /// Passes the barrier, timing the wait; false when it fails or times out.
    func pass() async -> Bool {
        let start = ContinuousClock.now
        let passed = await barrier.pass()
        let waited = ContinuousClock.now - start
        duration.record(duration: waited)
        if let tracer, let context = ServiceContext.current {
            tracer.recordSpan(
                "read_your_writes.barrier", context: context, lasting: waited,
                attributes: ["trip_history.barrier.passed": .bool(passed)])
        }
        return passed
    }
}
