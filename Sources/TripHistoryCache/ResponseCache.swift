public import CoreMetrics
import Synchronization

/// Computed responses kept in memory, keyed by a string that names everything the response depends on,
/// and partitioned by a `Scope` (a rider) whose data can change.
///
/// Guarantees:
/// - **Bounded memory.** Keys, values (their `cacheCost`), a per-entry overhead estimate and the per-scope
///   generation table together never exceed `configuration.maximumBytes`: the least recently used entries
///   are evicted first, and a value that alone exceeds the budget is not stored.
/// - **Time to live.** An entry older than `configuration.timeToLive` is never served.
/// - **Invalidation by generation.** `invalidate(_:)` gives the scope a new generation; entries remember
///   the generation they were computed at and an older one is a miss. The generation is captured *before*
///   computing, and a result is stored only if the scope's generation is unchanged when it completes, so a
///   computation that raced a write never stores its stale result as current.
/// - **Coalescing.** Concurrent misses for the same key and generation run `compute` once; every caller gets
///   its value or its error. Errors are never stored.
/// - **Suspension.** While `suspend()`ed (e.g. the change feed is down), nothing is served or stored;
///   `resume()` clears everything once more before caching again.
///
/// The computation runs in the first caller's task, so a miss starts no task of its own and waits on no other
/// thread's scheduling for it. Should that caller's task be cancelled while others wait for its computation,
/// the others compute anew rather than fail with its cancellation.
/// All bookkeeping is under one lock held for O(1) work (eviction aside), never across an `await`.
public final class ResponseCache<Scope: Hashable & Sendable, Value: ResponseCacheValue>: Sendable {
    /// Estimated bytes of bookkeeping per entry (slot, dictionary bucket, string header, buffer header).
    static var entryOverhead: Int { 192 }
    /// Estimated bytes per tracked scope in the generation table.
    static var scopeOverhead: Int { 64 + MemoryLayout<Scope>.stride }

    public let configuration: Configuration
    /// Scopes whose generation is tracked individually; past this, every generation is reset at once.
    let maximumTrackedScopes: Int
    /// The part of the budget left for entries once the generation table's share is reserved.
    let entryBudget: Int
    private let state: Mutex<State>
    private let metrics: ResponseCacheMetrics
    private let name: String
    private let metricsFactory: any MetricsFactory
    /// Counts the lookups of callers that name no route.
    private let unrouted: ResponseCacheRoute

    /// A computation in progress: its outcome, once known, and the callers waiting for it.
    private final class Flight: Sendable {
        enum Outcome {
            case value(Value)
            case failure(any Error)
            /// The computing caller was cancelled: the waiting callers compute for themselves.
            case abandoned
        }

        private struct Waiting {
            var outcome: Outcome?
            var waiters: [CheckedContinuation<Outcome, Never>] = []
        }

        let generation: UInt64
        private let waiting = Mutex(Waiting())

        init(generation: UInt64) {
            self.generation = generation
        }

        /// The outcome, at once if it is known, else once `finish(_:)` is called.
        func outcome() async -> Outcome {
            await withCheckedContinuation { continuation in
                let known = waiting.withLock { waiting -> Outcome? in
                    if let outcome = waiting.outcome { return outcome }
                    waiting.waiters.append(continuation)
                    return nil
                }
                if let known { continuation.resume(returning: known) }
            }
        }

        func finish(_ outcome: Outcome) {
            let waiters = waiting.withLock { waiting in
                waiting.outcome = outcome
                defer { waiting.waiters = [] }
                return waiting.waiters
            }
            for waiter in waiters { waiter.resume(returning: outcome) }
        }
    }

    private struct State: Sendable {
        var entries = LRUEntries<Value>()
        /// Generation of each scope invalidated since the last reset; others are at `floor`.
        var generations: [Scope: UInt64] = [:]
        var floor: UInt64 = 0
        var tick: UInt64 = 0
        var suspended: Bool
        var flights: [String: Flight] = [:]

        func generation(of scope: Scope) -> UInt64 { generations[scope] ?? floor }

        /// Every scope to a new generation, every entry dropped.
        mutating func reset() {
            tick += 1
            floor = tick
            generations = [:]
            entries.removeAll()
        }
    }

    private enum Step {
        case hit(Value)
        case join(Flight)
        case lead(Flight)
        case bypass
    }

    /// - Parameters:
    ///   - name: the `cache` label of the metrics.
    ///   - startsSuspended: true when entries must not be served until `resume()` (e.g. until a change feed
    ///     has started listening).
    ///   - metricsFactory: where the counters go; the global `MetricsSystem.factory` unless a test passes one.
    public init(
        configuration: Configuration = Configuration(), name: String = "responses", startsSuspended: Bool = false,
        metricsFactory: any MetricsFactory = MetricsSystem.factory
    ) {
        self.configuration = configuration
        self.maximumTrackedScopes = configuration.maximumBytes / 8 / Self.scopeOverhead
        self.entryBudget = configuration.maximumBytes - maximumTrackedScopes * Self.scopeOverhead
        self.state = Mutex(State(suspended: startsSuspended))
        self.metrics = ResponseCacheMetrics(name: name, factory: metricsFactory)
        self.name = name
        self.metricsFactory = metricsFactory
        self.unrouted = ResponseCacheRoute(cache: name, route: "", factory: metricsFactory)
    }

    /// The counters of lookups for `route` (a route pattern), to pass to `value(for:scope:route:compute:)` and
    /// `storedValue(for:scope:route:)`.
    public func route(_ route: String) -> ResponseCacheRoute {
        ResponseCacheRoute(cache: name, route: route, factory: metricsFactory)
    }

    /// The value for `key`: a stored one if it is current for `scope`'s generation and not expired, else
    /// the result of `compute` (shared with concurrent identical calls), stored if still current, counted
    /// under `route`. Throws what `compute` threw.
    public func value(
        for key: String, scope: Scope, route: ResponseCacheRoute? = nil,
        compute: @escaping @Sendable () async throws -> Value
    ) async throws -> (value: Value, source: Source) {
        let route = route ?? unrouted
        let now = configuration.now()
        let (step, expired) = state.withLock { state -> (Step, Bool) in
            if state.suspended { return (.bypass, false) }
            let generation = state.generation(of: scope)
            var expired = false
            // One lookup marks the entry recently used; a stale one is removed just below anyway.
            if let entry = state.entries.touch(key) {
                if entry.generation == generation && entry.expires > now {
                    return (.hit(entry.value), false)
                }
                expired = entry.generation == generation
                state.entries.remove(key)
            }
            if let flight = state.flights[key], flight.generation == generation {
                return (.join(flight), expired)
            }
            let flight = Flight(generation: generation)
            state.flights[key] = flight
            return (.lead(flight), expired)
        }
        if expired { metrics.expirations.increment() }
        switch step {
        case .hit(let value):
            route.hits.increment()
            return (value, .hit)
        case .join(let flight):
            route.coalesced.increment()
            switch await flight.outcome() {
            case .value(let value): return (value, .coalesced)
            case .failure(let error): throw error
            case .abandoned: return try await self.value(for: key, scope: scope, route: route, compute: compute)
            }
        case .lead(let flight):
            route.misses.increment()
            return (try await self.compute(key: key, scope: scope, flight: flight, compute), .computed)
        case .bypass:
            route.bypassed.increment()
            return (try await compute(), .bypassed)
        }
    }

    /// The stored value for `key` if it can be served right now (current for `scope`'s generation, not
    /// expired, cache not suspended), counted as a hit of `route`; nil otherwise, with nothing counted or
    /// changed, so the caller can go on to `value(for:scope:route:compute:)`. Never waits: for callers that
    /// must not suspend, such as a channel handler answering warm hits on the event loop.
    public func storedValue(for key: String, scope: Scope, route: ResponseCacheRoute? = nil) -> Value? {
        let now = configuration.now()
        let value = state.withLock { state -> Value? in
            guard !state.suspended, let entry = state.entries.touch(key),
                entry.generation == state.generation(of: scope),
                entry.expires > now
            else { return nil }
            return entry.value
        }
        if value != nil { (route ?? unrouted).hits.increment() }
        return value
    }

    /// Makes every entry of `scope` stale, including those being computed right now. Call it after a write
    /// to the scope has committed and before the write is acknowledged.
    public func invalidate(_ scope: Scope) {
        let reset = state.withLock { state -> Bool in
            state.tick += 1
            state.generations[scope] = state.tick
            guard state.generations.count > maximumTrackedScopes else { return false }
            state.reset()
            return true
        }
        metrics.invalidations.increment()
        if reset { recordSize(entries: 0, bytes: 0) }
    }

    /// Makes every entry stale, including those being computed right now.
    public func invalidateAll() {
        state.withLock { $0.reset() }
        metrics.invalidations.increment()
        recordSize(entries: 0, bytes: 0)
    }

    /// Stops serving and storing entries and drops them all: use it when the cache can no longer learn of
    /// writes (its change feed is down). Calls until `resume()` compute without caching.
    public func suspend() {
        state.withLock { state in
            state.suspended = true
            state.reset()
        }
        recordSize(entries: 0, bytes: 0)
    }

    /// Drops everything once more (writes may have been missed while suspended) and resumes caching.
    public func resume() {
        state.withLock { state in
            state.reset()
            state.suspended = false
        }
        recordSize(entries: 0, bytes: 0)
    }

    public var statistics: Statistics {
        state.withLock { state in
            Statistics(
                entries: state.entries.count,
                bytes: state.entries.bytes + state.generations.count * Self.scopeOverhead,
                trackedScopes: state.generations.count, isSuspended: state.suspended
            )
        }
    }

    /// Keys from most to least recently used, for tests of the eviction order.
    var keysByRecency: [String] {
        state.withLock { $0.entries.keysNewestFirst }
    }

    /// Runs `compute` for `flight`, stores its value if still current, and hands its outcome to the callers
    /// waiting for it.
    private func compute(
        key: String, scope: Scope, flight: Flight, _ compute: @Sendable () async throws -> Value
    ) async throws -> Value {
        let result: Result<Value, any Error>
        do {
            result = .success(try await compute())
        } catch {
            result = .failure(error)
        }
        let generation = flight.generation
        let expires = configuration.now().advanced(by: configuration.timeToLive)
        let outcome = state.withLock { state -> (evicted: Int, entries: Int, bytes: Int)? in
            if state.flights[key] === flight { state.flights[key] = nil }
            guard case .success(let value) = result, !state.suspended, state.generation(of: scope) == generation
            else { return nil }
            let cost = key.utf8.count + value.cacheCost + Self.entryOverhead
            guard cost <= entryBudget else { return nil }
            state.entries.insert(
                key, LRUEntries.Entry(value: value, generation: generation, expires: expires, cost: cost)
            )
            var evicted = 0
            while state.entries.bytes > entryBudget, state.entries.removeOldest() != nil {
                evicted += 1
            }
            return (evicted, state.entries.count, state.entries.bytes)
        }
        if let outcome {
            if outcome.evicted > 0 { metrics.evictions.increment(by: outcome.evicted) }
            recordSize(entries: outcome.entries, bytes: outcome.bytes)
        }
        switch result {
        case .success(let value): flight.finish(.value(value))
        case .failure(let error):
            flight.finish(error is CancellationError && Task.isCancelled ? .abandoned : .failure(error))
        }
        return try result.get()
    }

    private func recordSize(entries: Int, bytes: Int) {
        metrics.entries.record(entries)
        metrics.bytes.record(bytes)
    }
}
