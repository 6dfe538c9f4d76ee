public import TripHistoryCache
import TripHistoryDomain

/// How the server serves one rider read (`RiderTrips.route(_:cached:countedAs:)`): through the response cache
/// or not, and the cache's lookup counters of its route.
public struct RiderReadRoute<Read: RiderRead>: Sendable {
    /// The cache of the read's responses; nil when the read is not cached or there is no cache.
    let cache: TripResponseCache?
    /// With `cache`, the strict coherence fence that must pass before it is consulted; nil otherwise.
    let fence: (any ChangeFeedFence)?
    /// The cache's lookup counters of this read, when counted.
    let counters: ResponseCacheRoute?
}
