import HTTPTypes
public import NIOCore
public import TripHistoryCache
public import TripHistoryDomain
public import TripHistoryPresentation

/// The response cache of the rider routes: encoded bodies per rider, invalidated when the rider's trips change.
public typealias TripResponseCache = ResponseCache<RiderID, CachedTripResponse>

/// A rendered 200 of a list or detail route: the body exactly as sent, its entity tag, the `Link` header of a
/// list page, its language, and how long it took to produce (reported in `Server-Timing` by the request that
/// computed it). The headers it is served with as a cache hit are built once, here, since a hit is worth
/// answering with as little work as possible.
public struct CachedTripResponse: ResponseCacheValue {
    /// The JSON body; a `ByteBuffer` so each response shares the stored bytes instead of copying them.
    public let body: ByteBuffer
    /// A strong entity tag derived from the body, quotes included.
    public let etag: String
    public let link: String?
    /// The negotiated locale the display strings are written in.
    public let locale: SupportedLocale
    /// Time spent in the use case and repository.
    public let database: Duration
    /// Time spent formatting and writing JSON, tag included.
    public let encoding: Duration
    /// The headers of a 200 and of a 304 served from the cache (without the per-response `Content-Length`,
    /// `X-Request-ID` and `Date`); a computed response takes them with its own `Server-Timing`.
    let hitHeaders: HTTPFields
    let notModifiedHitHeaders: HTTPFields
    /// Whether responses of this entry carry `Server-Timing`: only to a rider reading their own trips, since
    /// to anyone else a hit would tell that somebody else just read the same page.
    let reportsTiming: Bool

    /// `version`, for a single trip's response, becomes the tag's prefix, which `If-Match` compares.
    /// `representation` is the body's type, what the response varies by, and the policy of a page.
    init(
        body: ByteBuffer, link: String?, locale: SupportedLocale, database: Duration,
        encodingStarted: ContinuousClock.Instant, reportsTiming: Bool, version: Int? = nil,
        representation: Representation = .json
    ) {
        self.reportsTiming = reportsTiming
        self.body = body
        self.etag = EntityTag.strong(for: body, version: version)
        self.link = link
        self.locale = locale
        self.database = database
        self.encoding = ContinuousClock.now - encodingStarted
        let serverTiming = reportsTiming ? ServerTiming.hit : nil
        hitHeaders = Self.headers(
            etag: etag, locale: locale, serverTiming: serverTiming, link: link, representation: representation,
            notModified: false)
        notModifiedHitHeaders = Self.headers(
            etag: etag, locale: locale, serverTiming: serverTiming, link: link, representation: representation,
            notModified: true)
    }

    public var cacheCost: Int {
        body.readableBytes + etag.utf8.count + (link?.utf8.count ?? 0) + Self.cost(of: hitHeaders)
            + Self.cost(of: notModifiedHitHeaders)
    }

    /// The headers of this response with the given `Server-Timing`: per-rider caching rules (no shared cache
    /// may keep it; it differs by token and language, and by `Accept` where that chooses the type), its tag,
    /// and for a 200 its type, `Link` and page policy.
    private static func headers(
        etag: String, locale: SupportedLocale, serverTiming: String?, link: String?, representation: Representation,
        notModified: Bool
    ) -> HTTPFields {
        var headers = HTTPFields()
        if !notModified { headers[.contentType] = representation.contentType }
        headers[.contentLanguage] = locale.identifier
        headers[.cacheControl] = "private, no-cache"
        headers[.vary] = representation.vary
        headers[.eTag] = etag
        if let serverTiming { headers[ServerTiming.name] = serverTiming }
        if !notModified, let link { headers[TripHeaderNames.link] = link }
        if !notModified, let policy = representation.contentSecurityPolicy {
            headers[TripHeaderNames.contentSecurityPolicy] = policy
        }
        return headers
    }

    private static func cost(of headers: HTTPFields) -> Int {
        headers.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 16 }
    }
}

extension CachedTripResponse {
    /// What a stored body is: its `Content-Type`, the request fields its response varies by, and for an HTML
    /// page its `Content-Security-Policy`.
    struct Representation: Sendable {
        let contentType: String
        let vary: String
        let contentSecurityPolicy: String?

        /// JSON chosen by token and language alone: the list, detail and changes routes.
        static let json = Representation(
            contentType: "application/json", vary: "Authorization, Accept-Language", contentSecurityPolicy: nil)
    }
}

/// The limits of a `TripResponseCache`.
public typealias TripResponseCacheConfiguration = TripResponseCache.Configuration
