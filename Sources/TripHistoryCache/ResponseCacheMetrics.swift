import CoreMetrics

/// The cache's swift-metrics instruments. Names follow Prometheus conventions because that is the backend
/// the service bootstraps; any other backend sees the same labels. Lookups are counted per route
/// (`ResponseCacheRoute`), the rest per cache.
struct ResponseCacheMetrics: Sendable {
    let evictions: Counter
    let expirations: Counter
    let invalidations: Counter
    let bytes: Gauge
    let entries: Gauge

    init(name: String, factory: any MetricsFactory) {
        let dimensions = [("cache", name)]
        func counter(_ label: String) -> Counter { Counter(label: label, dimensions: dimensions, factory: factory) }
        evictions = counter("trip_history_cache_evictions_total")
        expirations = counter("trip_history_cache_expirations_total")
        invalidations = counter("trip_history_cache_invalidations_total")
        bytes = Gauge(label: "trip_history_cache_bytes", dimensions: dimensions, factory: factory)
        entries = Gauge(label: "trip_history_cache_entries", dimensions: dimensions, factory: factory)
    }
}

/// The lookups of one route through a cache, counted with the labels `cache` and `route` (a route pattern
/// such as `/v1/riders/{rider_id}/trips`), so a hit ratio can be read per route: hits, misses, waits for a
/// concurrent identical computation (coalesced) and lookups that bypassed a suspended cache. Make one per
/// route with `ResponseCache.route(_:)` when the route is wired, not per request.
public struct ResponseCacheRoute: Sendable {
    let hits: Counter
    let misses: Counter
    let coalesced: Counter
    let bypassed: Counter

    init(cache: String, route: String, factory: any MetricsFactory) {
        let dimensions = [("cache", cache), ("route", route)]
        func counter(_ label: String) -> Counter { Counter(label: label, dimensions: dimensions, factory: factory) }
        hits = counter("trip_history_cache_hits_total")
        misses = counter("trip_history_cache_misses_total")
        coalesced = counter("trip_history_cache_coalesced_waits_total")
        bypassed = counter("trip_history_cache_bypassed_total")
    }
}
