public import TripHistoryCache

/// A cacheable rider read that may be answered before the router, with its path's ids as sent: `RiderTrips`
/// checks them as the routes do. Which paths name which read is the server's business.
public enum RiderRead: Equatable, Sendable {
    /// A page of the rider's trips.
    case list(riderID: Substring)
    /// One trip.
    case detail(riderID: Substring, tripID: Substring)
    /// The rider's changes feed.
    case changes(riderID: Substring)
}

/// The cache's lookup counters of the cached rider reads, each counted under the label the server gives its
/// route.
public struct RiderCacheRoutes: Sendable {
    let list: ResponseCacheRoute
    let detail: ResponseCacheRoute
    let receipt: ResponseCacheRoute
    let changes: ResponseCacheRoute

    public init(
        list: ResponseCacheRoute, detail: ResponseCacheRoute, receipt: ResponseCacheRoute, changes: ResponseCacheRoute
    ) {
        self.list = list
        self.detail = detail
        self.receipt = receipt
        self.changes = changes
    }
}
