import Dispatch
import Synchronization

/// Token buckets by key, kept as one number each (the generic cell rate algorithm): a bucket's theoretical
/// arrival time `tat`, the moment it will be full again. A request at `now` is admitted when
/// `max(tat, now) + interval - now` stays within `burst * interval`, which then becomes the new `tat`.
///
/// A bucket whose `tat` has passed is full, the same as no bucket, so it can be dropped without changing
/// any answer: each shard drops its full buckets every `sweepInterval` while it is used, and `removeIdle()`
/// drops them all. At most `capacity` buckets are held; a shard that is full after dropping its idle
/// buckets forgets an arbitrary one, which can only admit a request that would have been refused.
///
/// The buckets are split over independently locked shards by key hash, so callers on different event loops
/// rarely wait on one lock. The clock is injected: monotonic nanoseconds. It is read before the shard's lock,
/// so a caller descheduled in between brings an older reading than one the shard has already judged; each
/// shard judges by the latest time it has seen, or that caller would be refused for time it did not use.
public final class RateLimiter: Sendable {
    /// What one request got from its bucket.
    public struct Outcome: Sendable, Equatable {
        public let admitted: Bool
        /// Requests the bucket still admits now.
        public let remaining: Int
        /// Nanoseconds until the bucket is full again.
        public let resetNanoseconds: UInt64
        /// For a refused request, the nanoseconds until one would be admitted; zero when admitted.
        public let retryAfterNanoseconds: UInt64
    }

    /// The most buckets held at once.
    public let capacity: Int
    private let shards: [Shard]
    private let sweepInterval: UInt64
    private let now: @Sendable () -> UInt64
    private let total = Atomic<Int>(0)
    private let onCountChange: @Sendable (Int) -> Void

    /// `now` gives monotonic nanoseconds; `onCountChange` is told the number of buckets whenever it changes.
    public init(
        capacity: Int = 100_000, shardCount: Int = 16, sweepInterval: Duration = .seconds(10),
        now: @escaping @Sendable () -> UInt64 = RateLimiter.monotonicNanoseconds,
        onCountChange: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        let shardCount = max(1, min(shardCount, capacity))
        self.capacity = max(capacity, 1)
        self.now = now
        self.onCountChange = onCountChange
        let (seconds, attoseconds) = sweepInterval.components
        self.sweepInterval = UInt64(max(seconds, 0)) * 1_000_000_000 + UInt64(max(attoseconds, 0) / 1_000_000_000)
        let start = now()
        shards = (0..<shardCount).map { index in
            Shard(capacity: max(1, capacity / shardCount + (index < capacity % shardCount ? 1 : 0)), start: start)
        }
    }

    /// The monotonic clock used unless a test injects one.
    @Sendable public static func monotonicNanoseconds() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    /// Takes one request from `key`'s bucket under `policy`.
    public func take(_ key: RateLimitKey, policy: RateLimitPolicy) -> Outcome {
        let current = now()
        let shard = shards[Int(key.shardHash % UInt(shards.count))]
        let (outcome, change) = shard.state.withLock { state in
            state.take(
                key, interval: policy.intervalNanoseconds, burst: UInt64(policy.burst), now: current,
                sweepInterval: sweepInterval)
        }
        if change != 0 { onCountChange(total.add(change, ordering: .relaxed).newValue) }
        return outcome
    }

    /// Drops every full bucket now.
    public func removeIdle() {
        let current = now()
        var change = 0
        for shard in shards {
            change += shard.state.withLock { $0.removeFull(now: current) }
        }
        if change != 0 { onCountChange(total.add(change, ordering: .relaxed).newValue) }
    }

    /// The buckets held right now.
    public var count: Int {
        shards.reduce(0) { sum, shard in sum + shard.state.withLock { $0.tats.count } }
    }

    private final class Shard: Sendable {
        let state: Mutex<ShardState>

        init(capacity: Int, start: UInt64) {
            state = Mutex(ShardState(capacity: capacity, lastSweep: start))
        }
    }

    private struct ShardState {
        var tats: [RateLimitKey: UInt64] = [:]
        let capacity: Int
        var lastSweep: UInt64
        /// The latest clock reading this shard has judged by.
        var latest: UInt64

        init(capacity: Int, lastSweep: UInt64) {
            self.capacity = capacity
            self.lastSweep = lastSweep
            latest = lastSweep
        }

        /// The outcome, and how the number of buckets changed.
        mutating func take(
            _ key: RateLimitKey, interval: UInt64, burst: UInt64, now reading: UInt64, sweepInterval: UInt64
        ) -> (Outcome, Int) {
            let now = judgedTime(reading)
            var change = 0
            if now &- lastSweep >= sweepInterval { change += removeFull(now: now) }
            // The bucket's position, so a known key is hashed once for both reading and writing its `tat`.
            let position = tats.index(forKey: key)
            let stored = position.map { tats.values[$0] }
            if stored == nil, tats.count >= capacity {
                change += removeFull(now: now)
                if tats.count >= capacity {
                    tats.remove(at: tats.startIndex)
                    change -= 1
                }
            }
            let tat = max(stored ?? now, now)
            let next = tat + interval
            let tolerance = burst * interval
            guard next - now <= tolerance else {
                let outcome = Outcome(
                    admitted: false, remaining: 0, resetNanoseconds: tat - now,
                    retryAfterNanoseconds: next - now - tolerance)
                return (outcome, change)
            }
            if let position {
                tats.values[position] = next
            } else {
                tats[key] = next
                change += 1
            }
            let outcome = Outcome(
                admitted: true, remaining: Int((tolerance - (next - now)) / interval), resetNanoseconds: next - now,
                retryAfterNanoseconds: 0)
            return (outcome, change)
        }

        /// The time to judge a caller's clock `reading` by: the latest reading this shard has seen.
        mutating func judgedTime(_ reading: UInt64) -> UInt64 {
            latest = max(latest, reading)
            return latest
        }

        /// Drops the buckets that are full at `now`; returns the (negative) change in their number.
        mutating func removeFull(now reading: UInt64) -> Int {
            let now = judgedTime(reading)
            lastSweep = now
            let before = tats.count
            tats = tats.filter { $0.value > now }
            return tats.count - before
        }
    }
}
