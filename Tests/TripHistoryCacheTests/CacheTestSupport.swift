import Prometheus
import Synchronization

@testable import TripHistoryCache

/// A cached value whose cost is its text's length.
struct Blob: ResponseCacheValue, Equatable {
    var text: String
    var cacheCost: Int { text.utf8.count }

    init(_ text: String) { self.text = text }
    init(size: Int) { self.text = String(repeating: "x", count: size) }
}

/// A clock that moves only when told to.
final class TestClock: Sendable {
    private let start = ContinuousClock.now
    private let offset = Mutex(Duration.zero)

    var now: ContinuousClock.Instant { start.advanced(by: offset.withLock { $0 }) }

    func advance(by duration: Duration) { offset.withLock { $0 += duration } }
}

/// A count that concurrent tasks can bump.
final class Counter: Sendable {
    private let value = Mutex(0)
    var count: Int { value.withLock { $0 } }
    @discardableResult func increment() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}

/// A gate computations wait at until the test opens it.
actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}

struct ComputeFailure: Error, Equatable {}

/// Reads one sample (`name{labels} value`) from a Prometheus registry's text output.
func sample(_ registry: PrometheusCollectorRegistry, _ name: String) -> Double? {
    for line in registry.emitToString().split(separator: "\n")
    where line.hasPrefix(name + "{") || line.hasPrefix(name + " ") {
        return line.split(separator: " ").last.flatMap { Double($0) }
    }
    return nil
}

/// A deterministic generator, so a failing random-traffic run can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
