import CoreMetrics

/// The cache's swift-metrics instruments. Names follow Prometheus conventions because that is the backend
/// the service bootstraps; any other backend sees the same labels.
struct ResponseCacheMetrics: Sendable {
    let hits: Counter
    let misses: Counter
    let coalesced: Counter
    let evictions: Counter
    let expirations: Counter
    let bypassed: Counter
    let invalidations: Counter
    let bytes: Gauge
    let entries: Gauge

    init(name: String, factory: any MetricsFactory) {
        let dimensions = [("cache", name)]
        func counter(_ label: String) -> Counter { Counter(label: label, dimensions: dimensions, factory: factory) }
        hits = counter("trip_history_cache_hits_total")
        misses = counter("trip_history_cache_misses_total")
        coalesced = counter("trip_history_cache_coalesced_waits_total")
        evictions = counter("trip_history_cache_evictions_total")
        expirations = counter("trip_history_cache_expirations_total")
        bypassed = counter("trip_history_cache_bypassed_total")
        invalidations = counter("trip_history_cache_invalidations_total")
        bytes = Gauge(label: "trip_history_cache_bytes", dimensions: dimensions, factory: factory)
        entries = Gauge(label: "trip_history_cache_entries", dimensions: dimensions, factory: factory)
    }
}
