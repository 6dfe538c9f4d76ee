public import Foundation
public import HTTPTypes
import NIOCore
public import Tracing
public import TripHistoryCache
public import TripHistoryDomain
public import TripHistoryPresentation

/// The rider-facing operations: the rider reads (each a `RiderRead`: a page of trips, one trip and its
/// receipt, the changes feed) and recording trips and adjustments.
///
/// A read is checked once into its `RiderRead` value: caller, rider, filter, cursor position, locale, access
/// decided, cache key. It is then answered from the response cache or computed, the same way for every read.
/// The server's routes call `answer(_:path:head:)`, `record` and `adjust`; an event-loop handler may call
/// `earlyAnswer(_:path:head:)`, which checks the read with the same code and answers it the same way.
public final class RiderTrips<Repository: TripRepository>: Sendable {
    let listRiderTrips: ListRiderTrips<Repository>
    let getTrip: GetTrip<Repository>
    let recordTrip: RecordTrip<Repository>
    let recordAdjustment: RecordAdjustment<Repository>
    let listTripChanges: ListTripChanges<Repository>
    let syncTokens: SyncTokenCodec
    let changesRetention: TimeInterval
    let now: @Sendable () -> Date
    let presenter: TripPresenter
    let receiptPage = ReceiptPage()
    let localeNegotiator: LocaleNegotiator
    let tokens: AccessTokens
    let cursors: CursorCodec
    let cache: TripResponseCache?
    private let fence: (any ChangeFeedFence)?
    private let tracer: (any Tracer)?
    /// Whether `tracer` is set, read on every request without copying it.
    private let traced: Bool
    let bodyDecoder = JSONDecoder()

    /// `cache`, when given, serves repeated reads from memory (those whose route is cached); `record` and
    /// `adjust` invalidate the rider's entries before answering. Without it every read reaches the repository;
    /// bodies are the same. `fence`, when given with a cache (strict coherence across instances), must pass
    /// before the cache is consulted for a read, so no instance serves an entry older than a write acknowledged
    /// by another before the read began; when it fails, the read bypasses the cache. With `tracer`, a traced
    /// read gets a span for its cache lookup and one for its computation, and its request span the cache
    /// outcome. The changes feed refuses `since` tokens issued longer than `changesRetention` before `now()`.
    public init(
        listRiderTrips: ListRiderTrips<Repository>, getTrip: GetTrip<Repository>, recordTrip: RecordTrip<Repository>,
        recordAdjustment: RecordAdjustment<Repository>, listTripChanges: ListTripChanges<Repository>,
        presenter: TripPresenter, localeNegotiator: LocaleNegotiator, tokens: AccessTokens, cursors: CursorCodec,
        syncTokens: SyncTokenCodec, changesRetention: TimeInterval = 30 * 86_400,
        cache: TripResponseCache? = nil, fence: (any ChangeFeedFence)? = nil,
        tracer: (any Tracer)? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.tracer = tracer
        traced = tracer != nil
        self.listRiderTrips = listRiderTrips
        self.getTrip = getTrip
        self.recordTrip = recordTrip
        self.recordAdjustment = recordAdjustment
        self.listTripChanges = listTripChanges
        self.syncTokens = syncTokens
        self.changesRetention = changesRetention
        self.now = now
        self.presenter = presenter
        self.localeNegotiator = localeNegotiator
        self.tokens = tokens
        self.cursors = cursors
        self.cache = cache
        self.fence = cache == nil ? nil : fence
    }

    /// How `read` is served: through the cache when `cached` and there is one, its lookups counted under
    /// `label` when given. Made once per route, when the routes are.
    public func route<Read: RiderRead>(
        _ read: Read.Type, cached: Bool = true, countedAs label: String? = nil
    ) -> RiderReadRoute<Read> {
        let cache = cached ? cache : nil
        return RiderReadRoute<Read>(
            cache: cache, fence: cache == nil ? nil : fence, counters: label.flatMap { cache?.route($0) })
    }

    /// A rider read from the router, with the path's ids as sent: the token verified (waiting for it if need
    /// be), the read checked, then answered from the cache or computed.
    public func answer<Read: RiderRead>(
        _ route: RiderReadRoute<Read>, path: RiderReadPath, head: HTTPRequest
    ) async throws -> APIResponse {
        let caller = try await tokens.caller(authorization: head.headerFields.value(of: .authorization))
        let read = try Read.check(path, head: head, caller: caller, in: self, forLookup: false)
        return try await answer(read, route: route, ifNoneMatch: head.headerFields[values: .ifNoneMatch])
    }

    /// How a rider read can be answered before the router, from the channel pipeline: with the stored
    /// response of a warm hit, or by computing it exactly as `answer(_:path:head:)` does (the same checked
    /// read, the same cache and rendering; with a fence, even a warm hit is computed, as it waits for the
    /// fence). Nil when the router should take the request: a token never verified before (verifying one
    /// waits), or a problem in the request, which the router reports. Never waits, so an event-loop handler
    /// may call it.
    public func earlyAnswer<Read: RiderRead>(
        _ route: RiderReadRoute<Read>, path: RiderReadPath, head: HTTPRequest
    ) -> EarlyAnswer? {
        guard let caller = tokens.verifiedCaller(authorization: head.headerFields.value(of: .authorization))
        else { return nil }
        // A warm hit is looked up here only when no fence must pass first.
        let lookup = route.fence == nil ? route.cache : nil
        guard var read = try? Read.check(path, head: head, caller: caller, in: self, forLookup: lookup != nil)
        else { return nil }
        // The key is built once, for the lookup here and for the computation of a miss.
        let key = route.cache.map { _ in read.cacheKey }
        var stored: CachedTripResponse?
        if let lookup, let key {
            stored = lookup.storedValue(for: key, scope: read.riderID, route: route.counters)
        }
        if stored == nil, lookup != nil {
            // Not a warm hit: what the lookup left unchecked is checked now, before anything is computed.
            do {
                if let completed = try read.completingChecks(in: self) { read = completed }
            } catch {
                return nil
            }
        }
        let ifNoneMatch = head.headerFields[values: .ifNoneMatch]
        if let stored {
            return .stored(
                StoredResponse(
                    response: Self.respond(stored, source: .hit, ifNoneMatch: ifNoneMatch),
                    cacheOutcome: Self.outcome(.hit), caller: caller)
            )
        }
        // The token was verified before this request's span began, so its role is noted here.
        let traced = self.traced
        let checked = read
        return .computed(caller: caller) {
            if traced { RequestSpanAttribute.note(caller) }
            return try await self.answer(checked, route: route, key: key, ifNoneMatch: ifNoneMatch)
        }
    }

    /// Answers a checked read: through the route's cache when it has one (which computes on a miss), else by
    /// computing. `key` is the read's cache key when the caller has built it already. With a fence, the cache
    /// is consulted only once the fence has passed, and bypassed when it fails.
    private func answer<Read: RiderRead>(
        _ read: Read, route: RiderReadRoute<Read>, key: String? = nil, ifNoneMatch: [String]
    ) async throws -> APIResponse {
        // Only a traced request pays for the spans' closures and context.
        guard let tracer, ServiceContext.current?.requestSpan != nil else {
            return try await answer(read, route: route, key: key, ifNoneMatch: ifNoneMatch) {
                try await read.render(in: self)
            }
        }
        return try await tracer.withSpan("cache.lookup") { _ in
            let response = try await answer(read, route: route, key: key, ifNoneMatch: ifNoneMatch) {
                try await tracer.withSpan("trips.compute") { _ in try await read.render(in: self) }
            }
            return response
        }
    }

    private func answer<Read: RiderRead>(
        _ read: Read, route: RiderReadRoute<Read>, key: String?, ifNoneMatch: [String],
        compute: @escaping @Sendable () async throws -> CachedTripResponse
    ) async throws -> APIResponse {
        guard let cache = route.cache else {
            return Self.respond(try await compute(), source: nil, ifNoneMatch: ifNoneMatch)
        }
        if let fence = route.fence, await !fence.awaitCurrent() {
            if traced { RequestSpanAttribute.note(RequestSpanAttribute.cacheOutcome, Self.outcome(.bypassed)) }
            return Self.respond(try await compute(), source: .bypassed, ifNoneMatch: ifNoneMatch)
        }
        let (response, source) = try await cache.value(
            for: key ?? read.cacheKey, scope: read.riderID, route: route.counters, compute: compute)
        if traced { RequestSpanAttribute.note(RequestSpanAttribute.cacheOutcome, Self.outcome(source)) }
        return Self.respond(response, source: source, ifNoneMatch: ifNoneMatch)
    }

    /// The `trip_history.cache.outcome` value of a cache source.
    static func outcome(_ source: TripResponseCache.Source) -> String {
        switch source {
        case .hit: "hit"
        case .computed: "miss"
        case .coalesced: "coalesced"
        case .bypassed: "bypassed"
        }
    }

    /// The language `Accept-Language` negotiates.
    func locale(of head: HTTPRequest) -> SupportedLocale {
        localeNegotiator.bestMatch(acceptLanguage: head.headerFields.value(of: .acceptLanguage))
    }

    /// The rider id of a path, or the 400 naming `rider_id`.
    static func riderID(_ text: Substring?) throws(Problem) -> RiderID {
        guard let riderID = text.flatMap({ RiderID($0) }) else {
            throw Problem.invalidParameter("rider_id", "rider_id must be a positive integer written in decimal.")
        }
        return riderID
    }

    /// The read's access decision, made before a cache lookup so that no stored response is ever served to a
    /// caller who could not compute it; the use cases take the grant it returns.
    static func grantRead(riderID: RiderID, caller: Caller) throws(Problem) -> RiderReadGrant {
        try Problem.enforce { () throws(TripHistoryError) in try AccessPolicy.read(riderID: riderID, caller: caller) }
    }

    /// A 200 with the stored body, or a 304 when `If-None-Match` matches its tag. Both carry the tag and the
    /// caching headers; the 304 has no body and no `Content-Type`. They are the headers built with the entry,
    /// with the `Server-Timing` of the computation unless this is a hit.
    private static func respond(
        _ response: CachedTripResponse, source: TripResponseCache.Source?, ifNoneMatch: [String]
    ) -> APIResponse {
        let notModified = EntityTag.ifNoneMatch(ifNoneMatch, matches: response.etag)
        var headers = notModified ? response.notModifiedHitHeaders : response.hitHeaders
        if source != .hit, response.reportsTiming {
            headers[ServerTiming.name] = ServerTiming.value(for: response, source: source)
        }
        return APIResponse(
            status: notModified ? .notModified : .ok, headers: headers,
            body: notModified ? .empty : .bytes(response.body)
        )
    }
}
