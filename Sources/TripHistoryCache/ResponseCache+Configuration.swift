extension ResponseCache {
    /// Limits of a response cache.
    public struct Configuration: Sendable {
        /// Default budget: 32 MiB.
        public static var defaultMaximumBytes: Int { 32 << 20 }
        /// Default time to live: 30 seconds.
        public static var defaultTimeToLive: Duration { .seconds(30) }

        /// Upper bound of the memory the cache accounts for: keys, values (their `cacheCost`), a per-entry
        /// overhead estimate and the per-scope generation table.
        public var maximumBytes: Int
        /// How long an entry may be served after it was computed, whatever else happens.
        public var timeToLive: Duration
        /// The clock entries age by; tests inject one they can move.
        public var now: @Sendable () -> ContinuousClock.Instant

        public init(
            maximumBytes: Int = Self.defaultMaximumBytes, timeToLive: Duration = Self.defaultTimeToLive,
            now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
        ) {
            self.maximumBytes = max(maximumBytes, 0)
            self.timeToLive = timeToLive
            self.now = now
        }
    }

    /// Where a value returned by `value(for:scope:compute:)` came from.
    public enum Source: Sendable, Hashable {
        /// Served from a stored entry: nothing was computed.
        case hit
        /// Computed by this call (a miss).
        case computed
        /// Computed by a concurrent identical call that this one waited for.
        case coalesced
        /// The cache is suspended (it cannot vouch for entries), so this call computed without caching.
        case bypassed
    }

    /// A snapshot of the cache's contents, for tests and diagnostics.
    public struct Statistics: Sendable, Hashable {
        public var entries: Int
        /// Bytes accounted for, generation table included; never above `maximumBytes`.
        public var bytes: Int
        public var trackedScopes: Int
        public var isSuspended: Bool
    }
}
