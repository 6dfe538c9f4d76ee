import NIOCore
import TripHistoryCache
import TripHistoryDomain

/// The response cache of the rider routes: encoded bodies per rider, invalidated when the rider's trips change.
public typealias TripResponseCache = ResponseCache<RiderID, CachedTripResponse>

/// A rendered 200 of a list or detail route: the body exactly as sent, its entity tag, the `Link` header of a
/// list page, and how long it took to produce (reported in `Server-Timing` by the request that computed it).
public struct CachedTripResponse: ResponseCacheValue {
    /// The JSON body; a `ByteBuffer` so each response shares the stored bytes instead of copying them.
    public let body: ByteBuffer
    /// A strong entity tag derived from the body, quotes included.
    public let etag: String
    public let link: String?
    /// Time spent in the use case and repository.
    public let database: Duration
    /// Time spent formatting and writing JSON, tag included.
    public let encoding: Duration

    init(body: [UInt8], link: String?, database: Duration, encodingStarted: ContinuousClock.Instant) {
        self.body = ByteBuffer(bytes: body)
        self.etag = EntityTag.strong(for: body)
        self.link = link
        self.database = database
        self.encoding = ContinuousClock.now - encodingStarted
    }

    public var cacheCost: Int {
        body.readableBytes + etag.utf8.count + (link?.utf8.count ?? 0)
    }
}

/// The limits of a `TripResponseCache`.
public typealias TripResponseCacheConfiguration = TripResponseCache.Configuration
