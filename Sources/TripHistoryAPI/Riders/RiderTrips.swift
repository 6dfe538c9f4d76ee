public import Foundation
public import HTTPTypes
public import NIOCore
public import Tracing
public import TripHistoryCache
public import TripHistoryDomain
public import TripHistoryPresentation

/// The rider-facing operations: a rider's trip list, one trip and its receipt, the changes feed, and recording
/// trips and adjustments.
///
/// A read is parsed and checked once into a typed value (`RiderTripsRead`): caller, rider, filter, cursor
/// position, locale, access decided, cache key. It is then answered from the response cache or computed by
/// the use case. The server's routes call `list`, `detail`, `receipt`, `changes`, `record` and `adjust`; an
/// event-loop handler may call `earlyAnswer(to:head:)`, which checks the read with the same code and answers it
/// the same way.
public final class RiderTrips<Repository: TripRepository>: Sendable {
    private let listRiderTrips: ListRiderTrips<Repository>
    let getTrip: GetTrip<Repository>
    private let recordTrip: RecordTrip<Repository>
    private let recordAdjustment: RecordAdjustment<Repository>
    private let listTripChanges: ListTripChanges<Repository>
    private let syncTokens: SyncTokenCodec
    private let changesRetention: TimeInterval
    private let now: @Sendable () -> Date
    let presenter: TripPresenter
    let receiptPage = ReceiptPage()
    private let localeNegotiator: LocaleNegotiator
    private let tokens: AccessTokens
    private let cursors: CursorCodec
    private let cache: TripResponseCache?
    /// The cache's lookup counters of the cached reads.
    private let cacheRoutes: RiderCacheRoutes?
    private let fence: (any ChangeFeedFence)?
    private let tracer: (any Tracer)?
    /// Whether `tracer` is set, read on every request without copying it.
    private let traced: Bool
    private let bodyDecoder = JSONDecoder()

    /// `cache`, when given, serves repeated list and detail reads from memory; `record` invalidates the
    /// rider's entries before answering. Without it every read reaches the repository; bodies are the same.
    /// `cacheRoutes`, when given with a cache, count its lookups per read.
    /// `fence`, when given with a cache (strict coherence across instances), must pass before the cache is
    /// consulted for a read, so no instance serves an entry older than a write acknowledged by another before
    /// the read began; when it fails, the read bypasses the cache. With `tracer`, a traced read gets a span for
    /// its cache lookup and one for its computation, and its request span the cache outcome. The changes feed
    /// refuses `since` tokens issued longer than `changesRetention` before `now()`.
    public init(
        listRiderTrips: ListRiderTrips<Repository>, getTrip: GetTrip<Repository>, recordTrip: RecordTrip<Repository>,
        recordAdjustment: RecordAdjustment<Repository>, listTripChanges: ListTripChanges<Repository>,
        presenter: TripPresenter, localeNegotiator: LocaleNegotiator, tokens: AccessTokens, cursors: CursorCodec,
        syncTokens: SyncTokenCodec, changesRetention: TimeInterval = 30 * 86_400,
        cache: TripResponseCache? = nil, cacheRoutes: RiderCacheRoutes? = nil, fence: (any ChangeFeedFence)? = nil,
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
        self.cacheRoutes = cacheRoutes
        self.fence = cache == nil ? nil : fence
    }

    /// `GET /v1/riders/{rider_id}/trips`, with the path's `riderID` as sent.
    public func list(riderID: Substring?, head: HTTPRequest) async throws -> APIResponse {
        let caller = try await tokens.caller(authorization: head.headerFields.value(of: .authorization))
        let read = try listRead(caller: caller, riderID: riderID, head: head)
        return try await answer(read, ifNoneMatch: head.headerFields[values: .ifNoneMatch])
    }

    /// `GET /v1/riders/{rider_id}/trips/{trip_id}`, with the path's ids as sent.
    public func detail(riderID: Substring?, tripID: Substring?, head: HTTPRequest) async throws -> APIResponse {
        let caller = try await tokens.caller(authorization: head.headerFields.value(of: .authorization))
        let read = try detailRead(caller: caller, riderID: riderID, tripID: tripID, head: head)
        return try await answer(read, ifNoneMatch: head.headerFields[values: .ifNoneMatch])
    }

    /// `GET /v1/riders/{rider_id}/trips/{trip_id}/receipt`, with the path's ids as sent: the detail's access
    /// and caching, in the representation `Accept` prefers.
    public func receipt(riderID: Substring?, tripID: Substring?, head: HTTPRequest) async throws -> APIResponse {
        let caller = try await tokens.caller(authorization: head.headerFields.value(of: .authorization))
        let read = try detailRead(caller: caller, riderID: riderID, tripID: tripID, head: head, receipt: true)
        return try await answer(read, ifNoneMatch: head.headerFields[values: .ifNoneMatch])
    }

    /// `GET /v1/riders/{rider_id}/trips/changes`, with the path's `riderID` as sent.
    public func changes(riderID: Substring?, head: HTTPRequest) async throws -> APIResponse {
        let caller = try await tokens.caller(authorization: head.headerFields.value(of: .authorization))
        let read = try changesRead(caller: caller, riderID: riderID, head: head)
        return try await answer(read, ifNoneMatch: head.headerFields[values: .ifNoneMatch])
    }

    /// How a rider read can be answered before the router, from the channel pipeline: with the stored
    /// response of a warm hit, or by computing it exactly as `list`, `detail` and `changes` do (the same checked read,
    /// the same cache and rendering; with a fence, even a warm hit is computed, as it waits for the fence).
    /// `path` is the read the request's path names. Nil when the router should take the request: a token never
    /// verified before (verifying one waits), or a problem in the request, which the router reports. Never
    /// waits, so an event-loop handler may call it.
    public func earlyAnswer(to path: RiderRead, head: HTTPRequest) -> EarlyAnswer? {
        guard let caller = tokens.verifiedCaller(authorization: head.headerFields.value(of: .authorization))
        else { return nil }
        var read: RiderTripsRead
        switch path {
        case .list(let riderID):
            guard let checked = try? listRead(caller: caller, riderID: riderID, head: head) else { return nil }
            read = checked
        case .detail(let riderID, let tripID):
            guard let checked = try? detailRead(caller: caller, riderID: riderID, tripID: tripID, head: head)
            else { return nil }
            read = checked
        case .changes(let riderID):
            // A warm hit is looked up before the token's signature is checked: the entry was stored under this
            // exact token, checked when it was computed (a token past its retention may thus be answered from
            // the cache for at most the cache's TTL). A read to compute checks the token below.
            let verifies = cache == nil || fence != nil
            guard let checked = try? changesRead(caller: caller, riderID: riderID, head: head, verifiesToken: verifies)
            else { return nil }
            read = checked
        }
        // The key is built once, for the lookup here and for the computation of a miss.
        let key = cache.map { _ in read.cacheKey }
        var stored: CachedTripResponse?
        if fence == nil, let cache, let key {
            stored = cache.storedValue(for: key, scope: read.riderID, route: cacheRoute(of: read))
        }
        if stored == nil, case .changes(let since?, nil, let limit) = read.kind {
            // Not a warm hit: the token is checked now, before anything is computed with it.
            guard let position = try? changesPosition(since: since, riderID: read.riderID) else { return nil }
            read = RiderTripsRead(
                grant: read.grant, locale: read.locale, kind: .changes(since: since, position: position, limit: limit))
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
            return try await self.answer(checked, key: key, ifNoneMatch: ifNoneMatch)
        }
    }

    /// Answers a checked read: through the cache when there is one (which computes on a miss), else by
    /// computing. `key` is the read's cache key when the caller has built it already. With a fence, the cache
    /// is consulted only once the fence has passed, and bypassed when it fails.
    private func answer(_ read: RiderTripsRead, key: String? = nil, ifNoneMatch: [String]) async throws -> APIResponse {
        // Only a traced request pays for the spans' closures and context.
        guard let tracer, ServiceContext.current?.requestSpan != nil else {
            return try await answer(read, key: key, ifNoneMatch: ifNoneMatch) { try await self.render(read) }
        }
        return try await tracer.withSpan("cache.lookup") { _ in
            let response = try await answer(read, key: key, ifNoneMatch: ifNoneMatch) {
                try await tracer.withSpan("trips.compute") { _ in try await self.render(read) }
            }
            return response
        }
    }

    private func answer(
        _ read: RiderTripsRead, key: String?, ifNoneMatch: [String],
        compute: @escaping @Sendable () async throws -> CachedTripResponse
    ) async throws -> APIResponse {
        guard let cache else {
            return Self.respond(try await compute(), source: nil, ifNoneMatch: ifNoneMatch)
        }
        if let fence, await !fence.awaitCurrent() {
            if traced { RequestSpanAttribute.note(RequestSpanAttribute.cacheOutcome, Self.outcome(.bypassed)) }
            return Self.respond(try await compute(), source: .bypassed, ifNoneMatch: ifNoneMatch)
        }
        let (response, source) = try await cache.value(
            for: key ?? read.cacheKey, scope: read.riderID, route: cacheRoute(of: read), compute: compute)
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

    private func cacheRoute(of read: RiderTripsRead) -> ResponseCacheRoute? {
        switch read.kind {
        case .list: cacheRoutes?.list
        case .detail: cacheRoutes?.detail
        case .receipt: cacheRoutes?.receipt
        case .changes: cacheRoutes?.changes
        }
    }

    /// Checks a changes-feed request's path, query and `since` token in the order their problems are reported,
    /// then access. Without `verifiesToken`, the token is kept as sent and not decoded (its position is nil):
    /// such a read serves only to look up a warm hit.
    private func changesRead(
        caller: Caller, riderID: Substring?, head: HTTPRequest, verifiesToken: Bool = true
    ) throws(Problem) -> RiderTripsRead {
        let riderID = try Self.riderID(riderID)
        let query = try QueryParameters(target: head.path ?? "")
        try TripListParameters.rejectRepeated(["since", "limit"], in: query)
        let limit = try ChangePageLimit.parse(query["limit"])
        var position: ChangePosition?
        let since = query["since"]
        if let since, verifiesToken { position = try changesPosition(since: since, riderID: riderID) }
        let grant = try Self.grantRead(riderID: riderID, caller: caller)
        let locale = localeNegotiator.bestMatch(acceptLanguage: head.headerFields.value(of: .acceptLanguage))
        return RiderTripsRead(
            grant: grant, locale: locale,
            kind: .changes(since: since.map(String.init), position: position, limit: limit))
    }

    /// The position `since` names in `riderID`'s feed, once its signature, feed, rider and age are checked.
    private func changesPosition(since: some StringProtocol, riderID: RiderID) throws(Problem) -> ChangePosition {
        do {
            return try syncTokens.decode(since, riderID: riderID, now: now(), retention: changesRetention)
        } catch {
            throw Problem.syncToken(error, retention: changesRetention)
        }
    }

    /// Checks a list request's path, query and cursor in the order its problems are reported, then access.
    private func listRead(caller: Caller, riderID: Substring?, head: HTTPRequest) throws(Problem) -> RiderTripsRead {
        let riderID = try Self.riderID(riderID)
        let parameters = try TripListParameters.parse(QueryParameters(target: head.path ?? ""))
        // The scope is hashed only when a cursor is to be checked; a first page hashes it when it renders.
        var scope: CursorScope?
        var position: PagePosition?
        if let cursor = parameters.cursor {
            let checked = CursorScope(riderID: riderID, filter: parameters.filter)
            position = try cursors.position(cursor, scope: checked)
            scope = checked
        }
        let grant = try Self.grantRead(riderID: riderID, caller: caller)
        let locale = localeNegotiator.bestMatch(acceptLanguage: head.headerFields.value(of: .acceptLanguage))
        return RiderTripsRead(
            grant: grant, locale: locale,
            kind: .list(RiderTripsRead.List(parameters: parameters, scope: scope, position: position))
        )
    }

    /// Checks a detail (or, with `receipt`, a receipt) request's path and query, then access, then for a
    /// receipt the representation `Accept` asks for.
    private func detailRead(
        caller: Caller, riderID: Substring?, tripID: Substring?, head: HTTPRequest, receipt: Bool = false
    ) throws(Problem) -> RiderTripsRead {
        let riderID = try Self.riderID(riderID)
        guard let tripID = tripID.flatMap({ TripID($0) }) else {
            throw Problem.invalidParameter("trip_id", "trip_id must be a positive integer written in decimal.")
        }
        let timeZone = try TripListParameters.parseTimeZone(QueryParameters(target: head.path ?? "")["tz"])
        let grant = try Problem.enforce { () throws(TripHistoryError) in
            try AccessPolicy.readTrip(riderID: riderID, caller: caller)
        }
        let locale = localeNegotiator.bestMatch(acceptLanguage: head.headerFields.value(of: .acceptLanguage))
        guard receipt else {
            return RiderTripsRead(
                grant: grant, locale: locale, kind: .detail(tripID: tripID, timeZone: timeZone))
        }
        let format = try ReceiptFormat.negotiate(
            accept: head.headerFields.value(of: .accept), offered: ReceiptFormat.offered)
        return RiderTripsRead(
            grant: grant, locale: locale,
            kind: .receipt(tripID: tripID, timeZone: timeZone, format: format))
    }

    private func render(_ read: RiderTripsRead) async throws -> CachedTripResponse {
        switch read.kind {
        case .list(let list): return try await renderList(list, read: read)
        case .detail(let tripID, let timeZone): return try await renderDetail(tripID, timeZone: timeZone, read: read)
        case .receipt(let tripID, let timeZone, let format):
            return try await renderReceipt(tripID, timeZone: timeZone, format: format, read: read)
        case .changes(let since, let position, let limit):
            // A token never decoded would read as "now": only a checked one is rendered.
            guard since == nil || position != nil else { throw Problem.invalidSyncToken }
            return try await renderChanges(position, limit: limit, read: read)
        }
    }

    private func renderList(_ list: RiderTripsRead.List, read: RiderTripsRead) async throws -> CachedTripResponse {
        let parameters = list.parameters
        let queryStarted = ContinuousClock.now
        let page = try await listRiderTrips.execute(
            read.grant, filter: parameters.filter, limit: parameters.limit, position: list.position,
            count: parameters.count)
        let encodingStarted = ContinuousClock.now
        let scope = list.scope ?? CursorScope(riderID: read.riderID, filter: parameters.filter)
        let pageCursors = PageCursors(page, scope: scope, codec: cursors)
        var writer = JSONWriter(capacity: 512 + page.trips.count * 1024)
        writer.listPage(page, limit: parameters.limit.value, cursors: pageCursors) { trip in
            presenter.display(for: trip, locale: read.locale, timeZone: parameters.displayTimeZone)
        } filter: { writer in
            parameters.write(to: &writer)
        }
        return CachedTripResponse(
            body: writer.byteBuffer,
            link: pageCursors.link { parameters.url(riderID: read.riderID, cursor: $0) },
            locale: read.locale, database: encodingStarted - queryStarted, encodingStarted: encodingStarted,
            reportsTiming: read.reportsTiming
        )
    }

    private func renderDetail(
        _ tripID: TripID, timeZone: TimeZone?, read: RiderTripsRead
    ) async throws
        -> CachedTripResponse
    {
        let queryStarted = ContinuousClock.now
        let trip = try await getTrip.execute(read.grant, tripID: tripID)
        let encodingStarted = ContinuousClock.now
        var writer = JSONWriter(capacity: 2048)
        writer.trip(trip, display: presenter.display(for: trip, locale: read.locale, timeZone: timeZone))
        return CachedTripResponse(
            body: writer.byteBuffer, link: nil, locale: read.locale, database: encodingStarted - queryStarted,
            encodingStarted: encodingStarted, reportsTiming: read.reportsTiming, version: trip.lifecycle.version
        )
    }

    private func renderChanges(
        _ position: ChangePosition?, limit: ChangePageLimit, read: RiderTripsRead
    ) async throws -> CachedTripResponse {
        let queryStarted = ContinuousClock.now
        let page = try await listTripChanges.execute(read.grant, after: position, limit: limit.value)
        let encodingStarted = ContinuousClock.now
        var writer = JSONWriter(capacity: 256 + page.changes.count * 1024)
        writer.changesPage(page, nextSince: syncTokens.encode(page.next, riderID: read.riderID, now: now())) { trip in
            presenter.display(for: trip, locale: read.locale, timeZone: nil)
        }
        return CachedTripResponse(
            body: writer.byteBuffer, link: nil, locale: read.locale, database: encodingStarted - queryStarted,
            encodingStarted: encodingStarted, reportsTiming: read.reportsTiming
        )
    }

    /// `POST /v1/trips`. The role and media type are checked before `body` is read; `body` collects the
    /// request body and throws when it is over `TripRoutesLimits.maximumBodyBytes`.
    public func record(head: HTTPRequest, body: () async throws -> ByteBuffer) async throws -> APIResponse {
        let caller = try await tokens.caller(authorization: head.headerFields.value(of: .authorization))
        // Refuse the wrong role before reading a body it could never use.
        let grant = try Problem.enforce { () throws(TripHistoryError) in try AccessPolicy.record(caller: caller) }
        try Self.requireJSON(head)
        let bytes = try await body()
        let newTrip = try NewTripBody.decode(Array(buffer: bytes), decoder: bodyDecoder).newTrip()
        let recorded: RecordedTrip
        let recordStarted = ContinuousClock.now
        do {
            recorded = try await recordTrip.execute(
                newTrip, idempotencyKey: head.headerFields.value(of: TripHeaderNames.idempotencyKey), grant: grant
            )
        } catch {
            // The commit may have happened even though this request failed (e.g. the connection broke after it).
            cache?.invalidate(newTrip.riderID)
            throw error
        }
        // Before the response leaves: once the client sees 201, no read on this instance may miss the trip.
        cache?.invalidate(recorded.trip.riderID)
        let encodingStarted = ContinuousClock.now
        let locale = localeNegotiator.bestMatch(acceptLanguage: head.headerFields.value(of: .acceptLanguage))
        return created(recorded, locale: locale, queryStarted: recordStarted, encodingStarted: encodingStarted)
    }

    /// `POST /v1/riders/{rider_id}/trips/{trip_id}/adjustments`, with the path's ids as sent. The role and
    /// media type are checked before `body` is read, as for `record`.
    public func adjust(
        riderID: Substring?, tripID: Substring?, head: HTTPRequest, body: () async throws -> ByteBuffer
    ) async throws -> APIResponse {
        let caller = try await tokens.caller(authorization: head.headerFields.value(of: .authorization))
        let grant = try Problem.enforce { () throws(TripHistoryError) in try AccessPolicy.record(caller: caller) }
        let riderID = try Self.riderID(riderID)
        guard let tripID = tripID.flatMap({ TripID($0) }) else {
            throw Problem.invalidParameter("trip_id", "trip_id must be a positive integer written in decimal.")
        }
        try Self.requireJSON(head)
        let adjustment = try AdjustmentBody.decode(Array(buffer: try await body()), decoder: bodyDecoder).adjustment()
        // The precondition is evaluated last, by the store, once everything else about the request was
        // checked. A tag this service could not have given names no version; it matches none, as 0 would.
        let expectedVersion: Int? =
            switch EntityTag.ifMatchVersion(head.headerFields[values: .ifMatch]) {
            case nil: nil
            case .some(nil): 0
            case .some(.some(let version)): version
            }
        let recorded: RecordedTrip
        let recordStarted = ContinuousClock.now
        do {
            recorded = try await recordAdjustment.execute(
                adjustment, tripID: tripID, riderID: riderID, expectedVersion: expectedVersion,
                idempotencyKey: head.headerFields.value(of: TripHeaderNames.idempotencyKey), grant: grant)
        } catch {
            cache?.invalidate(riderID)
            throw error
        }
        // Before the response leaves: once the client sees 201, no read on this instance may miss the change.
        cache?.invalidate(riderID)
        let encodingStarted = ContinuousClock.now
        let locale = localeNegotiator.bestMatch(acceptLanguage: head.headerFields.value(of: .acceptLanguage))
        return created(recorded, locale: locale, queryStarted: recordStarted, encodingStarted: encodingStarted)
    }

    /// The 201 of a write: the trip as it now stands in detail form, its tag (whose version `If-Match`
    /// compares) and its address.
    private func created(
        _ recorded: RecordedTrip, locale: SupportedLocale, queryStarted: ContinuousClock.Instant,
        encodingStarted: ContinuousClock.Instant
    ) -> APIResponse {
        var writer = JSONWriter(capacity: 2048)
        writer.trip(recorded.trip, display: presenter.display(for: recorded.trip, locale: locale, timeZone: nil))
        let body = writer.byteBuffer
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.location] = "/v1/riders/\(recorded.trip.riderID)/trips/\(recorded.trip.id)"
        headers[.contentLanguage] = locale.identifier
        headers[.cacheControl] = "no-store"
        headers[.eTag] = EntityTag.strong(for: body, version: recorded.trip.lifecycle.version)
        if recorded.replayed { headers[TripHeaderNames.idempotentReplayed] = "true" }
        headers[ServerTiming.name] = ServerTiming.durations(
            queryStarted: queryStarted, encodingStarted: encodingStarted)
        return APIResponse(status: .created, headers: headers, body: .bytes(body))
    }

    private static func requireJSON(_ head: HTTPRequest) throws(Problem) {
        guard let contentType = head.headerFields.value(of: .contentType),
            contentType.lowercased().hasPrefix("application/json")
        else {
            throw Problem(
                status: .unsupportedMediaType, code: .unsupportedMediaType, title: "Unsupported media type",
                detail: "Send the body as application/json.", param: "Content-Type"
            )
        }
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

/// How a rider read is answered before the router (`RiderTrips.earlyAnswer(to:head:)`).
public enum EarlyAnswer: Sendable {
    /// The response is in memory.
    case stored(StoredResponse)
    /// The response is computed by `compute`, which throws what the route would report as a problem (the
    /// store is unavailable, the trip is not there); `caller` is whom its rate limit charges (nil: none).
    case computed(caller: Caller? = nil, compute: @Sendable () async throws -> APIResponse)

    /// Whom its rate limit charges; nil for none (the liveness probe).
    public var caller: Caller? {
        switch self {
        case .stored(let stored): stored.caller
        case .computed(let caller, _): caller
        }
    }
}

/// An answer found in memory, with the caller its rate limit charges, if any.
public struct StoredResponse: Sendable {
    public let response: APIResponse
    /// The `trip_history.cache.outcome` of the request span (`hit` for a stored rider read), nil for none.
    public let cacheOutcome: String?
    /// Who asked, as the token proved; nil when no caller was proven (and no rate limit applies).
    public let caller: Caller?

    public init(response: APIResponse, cacheOutcome: String? = nil, caller: Caller? = nil) {
        self.response = response
        self.cacheOutcome = cacheOutcome
        self.caller = caller
    }

    /// The `trip_history.role` of the request span: the caller's role, nil when no caller was proven.
    public var role: String? { caller.map(RequestSpanAttribute.role(of:)) }
}

// Outside the generic `RiderTrips`: a type nested in a generic type is generic too, and its metadata would be
// instantiated at run time on every request.

/// A rider read, parsed and checked: everything its response depends on, and the key it is cached under.
struct RiderTripsRead: Sendable {
    struct List: Sendable {
        let parameters: TripListParameters
        /// What the page's cursors are bound to, when the request's cursor was checked against it; the page's
        /// cursors are then signed with the same value instead of hashing it again.
        let scope: CursorScope?
        let position: PagePosition?
    }

    enum Kind: Sendable {
        case list(List)
        case detail(tripID: TripID, timeZone: TimeZone?)
        case receipt(tripID: TripID, timeZone: TimeZone?, format: ReceiptFormat)
        /// The changes feed after `position`, whose token was `since` as sent; a read without one has neither.
        case changes(since: String?, position: ChangePosition?, limit: ChangePageLimit)
    }

    /// Who reads which rider, as `AccessPolicy` allowed it.
    let grant: RiderReadGrant
    let locale: SupportedLocale
    let kind: Kind

    var riderID: RiderID { grant.riderID }
    var caller: Caller { grant.caller }

    /// Timings (and cache hits) are shown only to the rider whose trips these are.
    var reportsTiming: Bool {
        if case .rider = caller { return true }
        return false
    }

    var cacheKey: String {
        let view = ResponseKey.view(of: caller)
        switch kind {
        case .list(let list):
            return ResponseKey.list(view: view, riderID: riderID, parameters: list.parameters, locale: locale)
        case .detail(let tripID, let timeZone):
            return ResponseKey.detail(view: view, riderID: riderID, tripID: tripID, timeZone: timeZone, locale: locale)
        case .receipt(let tripID, let timeZone, let format):
            return ResponseKey.receipt(
                view: view, riderID: riderID, tripID: tripID, timeZone: timeZone, locale: locale, format: format)
        case .changes(let since, _, let limit):
            return ResponseKey.changes(view: view, riderID: riderID, since: since, limit: limit.value, locale: locale)
        }
    }
}
