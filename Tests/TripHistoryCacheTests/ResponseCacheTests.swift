import Prometheus
import Testing

@testable import TripHistoryCache

@Suite struct ResponseCacheTests {
    typealias Cache = ResponseCache<Int, Blob>

    private static func cache(
        bytes: Int = 1 << 20, ttl: Duration = .seconds(30), clock: TestClock = TestClock(),
        registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()
    ) -> Cache {
        Cache(
            configuration: .init(maximumBytes: bytes, timeToLive: ttl, now: { clock.now }),
            metricsFactory: PrometheusMetricsFactory(registry: registry)
        )
    }

    @Test func aSecondLookupIsAHitAndDoesNotCompute() async throws {
        let cache = Self.cache()
        let computations = Counter()
        for expected in [Cache.Source.computed, .hit, .hit] {
            let (value, source) = try await cache.value(for: "k", scope: 1) {
                computations.increment()
                return Blob("v")
            }
            #expect(value == Blob("v"))
            #expect(source == expected)
        }
        #expect(computations.count == 1)
    }

    @Test func randomTrafficNeverExceedsTheByteBudget() async throws {
        let budget = 40_000
        let cache = Self.cache(bytes: budget)
        var random = SplitMix64(state: 42)
        var stored = 0
        for _ in 0..<5_000 {
            let scope = Int.random(in: 0..<300, using: &random)
            let key = "k\(scope)-\(Int.random(in: 0..<20, using: &random))"
            let size = Int.random(in: 0..<6_000, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0: cache.invalidate(scope)
            default:
                let (_, source) = try await cache.value(for: key, scope: scope) { Blob(size: size) }
                if source == .hit { stored += 1 }
            }
            let statistics = cache.statistics
            #expect(statistics.bytes <= budget, "\(statistics)")
            if statistics.bytes > budget { break }
        }
        #expect(stored > 0, "the traffic never hit, so the bound was not exercised with a full cache")
    }

    @Test func evictsTheLeastRecentlyUsedFirst() async throws {
        let registry = PrometheusCollectorRegistry()
        let entry = 1_000 + 1 + Cache.entryOverhead
        // The smallest budget with room for exactly three entries once the generation table's share is reserved.
        var bytes = 3 * entry
        while Cache(configuration: .init(maximumBytes: bytes)).entryBudget < 3 * entry { bytes += 1 }
        let cache = Self.cache(bytes: bytes, registry: registry)
        for key in ["a", "b", "c"] { _ = try await cache.value(for: key, scope: 1) { Blob(size: 1_000) } }
        #expect(try await cache.value(for: "a", scope: 1) { Blob(size: 1_000) }.source == .hit)
        _ = try await cache.value(for: "d", scope: 1) { Blob(size: 1_000) }
        #expect(cache.keysByRecency == ["d", "a", "c"])
        #expect(try await cache.value(for: "b", scope: 1) { Blob(size: 1_000) }.source == .computed)
        #expect(cache.keysByRecency == ["b", "d", "a"])
        #expect(sample(registry, "trip_history_cache_evictions_total") == 2)
    }

    @Test func aValueLargerThanTheBudgetIsNotStored() async throws {
        let cache = Self.cache(bytes: 4_096)
        _ = try await cache.value(for: "big", scope: 1) { Blob(size: 10_000) }
        #expect(cache.statistics.entries == 0)
        #expect(try await cache.value(for: "big", scope: 1) { Blob(size: 10_000) }.source == .computed)
    }

    @Test func entriesExpireAfterTheTimeToLive() async throws {
        let clock = TestClock()
        let cache = Self.cache(ttl: .seconds(30), clock: clock)
        _ = try await cache.value(for: "k", scope: 1) { Blob("old") }
        clock.advance(by: .seconds(29))
        #expect(try await cache.value(for: "k", scope: 1) { Blob("new") } == (Blob("old"), .hit))
        clock.advance(by: .seconds(2))
        #expect(try await cache.value(for: "k", scope: 1) { Blob("new") } == (Blob("new"), .computed))
        #expect(try await cache.value(for: "k", scope: 1) { Blob("newer") } == (Blob("new"), .hit))
    }

    @Test func invalidatingAScopeMissesOnlyThatScope() async throws {
        let cache = Self.cache()
        _ = try await cache.value(for: "one", scope: 1) { Blob("1") }
        _ = try await cache.value(for: "two", scope: 2) { Blob("2") }
        cache.invalidate(1)
        #expect(try await cache.value(for: "one", scope: 1) { Blob("1b") } == (Blob("1b"), .computed))
        #expect(try await cache.value(for: "two", scope: 2) { Blob("2b") } == (Blob("2"), .hit))
        #expect(try await cache.value(for: "one", scope: 1) { Blob("1c") } == (Blob("1b"), .hit))
    }

    @Test func aComputationThatRacedAWriteIsNotStored() async throws {
        let cache = Self.cache()
        let gate = Gate()
        let started = Gate()
        let slow = Task {
            try await cache.value(for: "k", scope: 1) {
                await started.open()
                await gate.wait()
                return Blob("before the write")
            }
        }
        await started.wait()
        cache.invalidate(1)
        // A request after the write must not join the computation that began before it.
        let fresh = try await cache.value(for: "k", scope: 1) { Blob("after the write") }
        #expect(fresh == (Blob("after the write"), .computed))
        await gate.open()
        #expect(try await slow.value == (Blob("before the write"), .computed))
        #expect(try await cache.value(for: "k", scope: 1) { Blob("x") } == (Blob("after the write"), .hit))
    }

    @Test func aComputationThatRacedAWriteDoesNotOverwriteTheNewerEntry() async throws {
        let cache = Self.cache()
        let gate = Gate()
        let started = Gate()
        let slow = Task {
            try await cache.value(for: "k", scope: 1) {
                await started.open()
                await gate.wait()
                return Blob("stale")
            }
        }
        await started.wait()
        cache.invalidate(1)
        await gate.open()
        _ = try await slow.value
        #expect(cache.statistics.entries == 0)
        #expect(try await cache.value(for: "k", scope: 1) { Blob("fresh") } == (Blob("fresh"), .computed))
    }

    @Test(arguments: [2, 16, 64])
    func concurrentIdenticalMissesComputeOnce(callers: Int) async throws {
        let registry = PrometheusCollectorRegistry()
        let cache = Self.cache(registry: registry)
        let computations = Counter()
        let gate = Gate()
        try await withThrowingTaskGroup(of: (Blob, Cache.Source).self) { group in
            for _ in 0..<callers {
                group.addTask {
                    try await cache.value(for: "k", scope: 1) {
                        computations.increment()
                        await gate.wait()
                        return Blob("shared")
                    }
                }
            }
            try await Self.waitUntil {
                sample(registry, "trip_history_cache_coalesced_waits_total") == Double(callers - 1)
            }
            await gate.open()
            var sources: [Cache.Source] = []
            for try await (value, source) in group {
                #expect(value == Blob("shared"))
                sources.append(source)
            }
            #expect(sources.filter { $0 == .computed }.count == 1)
            #expect(sources.filter { $0 == .coalesced }.count == callers - 1)
        }
        #expect(computations.count == 1)
        #expect(try await cache.value(for: "k", scope: 1) { Blob("other") }.source == .hit)
    }

    /// The computation runs in its first caller's task: when that task is cancelled, a caller waiting for it
    /// computes for itself instead of failing with the cancellation.
    @Test func aWaiterComputesAnewWhenTheComputingCallerIsCancelled() async throws {
        let registry = PrometheusCollectorRegistry()
        let cache = Self.cache(registry: registry)
        let leader = Task {
            try await cache.value(for: "k", scope: 1) {
                try await Task.sleep(for: .seconds(600))
                return Blob("never")
            }
        }
        try await Self.waitUntil { sample(registry, "trip_history_cache_misses_total") == 1 }
        let waiter = Task { try await cache.value(for: "k", scope: 1) { Blob("waiter's") } }
        try await Self.waitUntil { sample(registry, "trip_history_cache_coalesced_waits_total") == 1 }
        leader.cancel()
        await #expect(throws: CancellationError.self) { try await leader.value }
        let (value, source) = try await waiter.value
        #expect(value == Blob("waiter's"))
        #expect(source == .computed)
        #expect(try await cache.value(for: "k", scope: 1) { Blob("other") } == (Blob("waiter's"), .hit))
    }

    @Test func aFailureReachesEveryWaiterAndIsNotCached() async throws {
        let registry = PrometheusCollectorRegistry()
        let cache = Self.cache(registry: registry)
        let computations = Counter()
        let gate = Gate()
        let callers = 8
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<callers {
                group.addTask {
                    do {
                        _ = try await cache.value(for: "k", scope: 1) {
                            computations.increment()
                            await gate.wait()
                            throw ComputeFailure()
                        }
                        return false
                    } catch {
                        return error is ComputeFailure
                    }
                }
            }
            try? await Self.waitUntil {
                sample(registry, "trip_history_cache_coalesced_waits_total") == Double(callers - 1)
            }
            await gate.open()
            var failures = 0
            for await failed in group where failed { failures += 1 }
            #expect(failures == callers)
        }
        #expect(computations.count == 1)
        #expect(cache.statistics.entries == 0)
        #expect(try await cache.value(for: "k", scope: 1) { Blob("ok") } == (Blob("ok"), .computed))
    }

    @Test func aSuspendedCacheNeitherServesNorStoresAndResumeClears() async throws {
        let cache = Self.cache()
        _ = try await cache.value(for: "k", scope: 1) { Blob("before") }
        cache.suspend()
        #expect(try await cache.value(for: "k", scope: 1) { Blob("during") } == (Blob("during"), .bypassed))
        #expect(try await cache.value(for: "k", scope: 1) { Blob("during 2") } == (Blob("during 2"), .bypassed))
        #expect(cache.statistics.entries == 0)
        cache.resume()
        #expect(try await cache.value(for: "k", scope: 1) { Blob("after") } == (Blob("after"), .computed))
        #expect(try await cache.value(for: "k", scope: 1) { Blob("x") } == (Blob("after"), .hit))
    }

    @Test func aComputationStartedBeforeASuspensionIsNotStoredAfterResume() async throws {
        let cache = Self.cache()
        let gate = Gate()
        let started = Gate()
        let slow = Task {
            try await cache.value(for: "k", scope: 1) {
                await started.open()
                await gate.wait()
                return Blob("unvouched")
            }
        }
        await started.wait()
        cache.suspend()
        cache.resume()
        await gate.open()
        _ = try await slow.value
        #expect(try await cache.value(for: "k", scope: 1) { Blob("fresh") } == (Blob("fresh"), .computed))
    }

    @Test func theGenerationTableStaysWithinTheBudget() async throws {
        let budget = 16_384
        let cache = Self.cache(bytes: budget)
        _ = try await cache.value(for: "k", scope: 1) { Blob("v") }
        for scope in 2..<10_000 {
            cache.invalidate(scope)
            #expect(cache.statistics.bytes <= budget)
        }
        #expect(cache.statistics.trackedScopes <= cache.maximumTrackedScopes)
        // Resetting the table invalidates everything, so scope 1 cannot be served from before.
        cache.invalidate(1)
        #expect(try await cache.value(for: "k", scope: 1) { Blob("w") }.value == Blob("w"))
    }

    @Test func countersReachTheMetricsFactory() async throws {
        let registry = PrometheusCollectorRegistry()
        let cache = Self.cache(registry: registry)
        _ = try await cache.value(for: "k", scope: 1) { Blob("v") }
        _ = try await cache.value(for: "k", scope: 1) { Blob("v") }
        #expect(sample(registry, "trip_history_cache_hits_total") == 1)
        #expect(sample(registry, "trip_history_cache_misses_total") == 1)
        #expect((sample(registry, "trip_history_cache_bytes") ?? 0) > 0)
    }

    /// Polls `condition` every 5 ms for up to 5 s.
    private static func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<1_000 {
            if condition() { return }
            try await Task.sleep(for: .milliseconds(5))
        }
        Issue.record("condition not met within 5 s")
    }
}
