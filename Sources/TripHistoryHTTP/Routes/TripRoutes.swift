import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore
import TripHistoryDomain
import TripHistoryPresentation

/// The rider-facing trip routes: list, detail and recording.
public struct TripRoutes<Repository: TripRepository>: Sendable {
    public typealias Context = TripHistoryRequestContext

    private let listRiderTrips: ListRiderTrips<Repository>
    private let getTrip: GetTrip<Repository>
    private let recordTrip: RecordTrip<Repository>
    private let presenter: TripPresenter
    private let localeNegotiator: LocaleNegotiator
    private let tokens: AccessTokens
    private let cursors: CursorCodec
    private let cache: TripResponseCache?
    private let bodyDecoder = JSONDecoder()

    /// `cache`, when given, serves repeated list and detail reads from memory; `record` invalidates the
    /// rider's entries before answering. Without it every read reaches the repository; bodies are the same.
    public init(
        listRiderTrips: ListRiderTrips<Repository>, getTrip: GetTrip<Repository>, recordTrip: RecordTrip<Repository>,
        presenter: TripPresenter, localeNegotiator: LocaleNegotiator, tokens: AccessTokens, cursors: CursorCodec,
        cache: TripResponseCache? = nil
    ) {
        self.cache = cache
        self.listRiderTrips = listRiderTrips
        self.getTrip = getTrip
        self.recordTrip = recordTrip
        self.presenter = presenter
        self.localeNegotiator = localeNegotiator
        self.tokens = tokens
        self.cursors = cursors
    }

    /// Adds the routes to `router`, answering other methods on the same paths with 405.
    public func register(on router: Router<Context>) {
        router.get("/v1/riders/:rider_id/trips") { request, context in try await list(request, context) }
        router.get("/v1/riders/:rider_id/trips/:trip_id") { request, context in try await detail(request, context) }
        router.post("/v1/trips") { request, context in try await record(request, context) }
        router.rejectOtherMethods("/v1/riders/:rider_id/trips", allowed: [.get])
        router.rejectOtherMethods("/v1/riders/:rider_id/trips/:trip_id", allowed: [.get])
        // GET /v1/trips is the analyst list, registered by AnalystRoutes.
        router.rejectOtherMethods("/v1/trips", allowed: [.get, .post])
    }

    func list(_ request: Request, _ context: Context) async throws -> Response {
        let caller = try await tokens.caller(authorization: request.headers[.authorization])
        let read = try listRead(
            caller: caller, riderID: context.parameters.get("rider_id"), query: request.uri.queryParameters,
            acceptLanguage: request.headers[.acceptLanguage]
        )
        return Response(try await answer(.list(read), ifNoneMatch: request.headers[values: .ifNoneMatch]))
    }

    /// Answers a checked rider read: through the cache when there is one (which computes on a miss), else by
    /// computing. The routes and the event-loop shortcut both answer through here.
    private func answer(_ read: RiderRead, ifNoneMatch: [String]) async throws -> RenderedResponse {
        let compute: @Sendable () async throws -> CachedTripResponse
        switch read {
        case .list(let list): compute = { try await renderList(list) }
        case .detail(let detail): compute = { try await renderDetail(detail) }
        }
        guard let cache else {
            return Self.respond(try await compute(), source: nil, ifNoneMatch: ifNoneMatch)
        }
        try Self.checkCanRead(riderID: read.riderID, caller: read.caller)
        let (response, source) = try await cache.value(for: read.cacheKey, scope: read.riderID, compute: compute)
        return Self.respond(response, source: source, ifNoneMatch: ifNoneMatch)
    }

    /// Checks a list request's path, query and cursor in the order its problems are reported.
    private func listRead(
        caller: Caller, riderID: (some StringProtocol)?, query: FlatDictionary<Substring, Substring>,
        acceptLanguage: String?
    ) throws(Problem) -> RiderListRead {
        let riderID = try Self.riderID(riderID)
        let parameters = try TripListParameters.parse(query)
        let position = try parameters.cursor.map { cursor throws(Problem) in
            try cursors.position(cursor, scope: CursorScope(riderID: riderID, filter: parameters.filter))
        }
        let locale = localeNegotiator.bestMatch(acceptLanguage: acceptLanguage)
        return RiderListRead(
            riderID: riderID, caller: caller, parameters: parameters, position: position, locale: locale)
    }

    private func renderList(_ read: RiderListRead) async throws -> CachedTripResponse {
        let (riderID, parameters) = (read.riderID, read.parameters)
        let queryStarted = ContinuousClock.now
        let page = try await listRiderTrips.execute(
            riderID: riderID, filter: parameters.filter, limit: parameters.limit, position: read.position,
            caller: read.caller
        )
        let encodingStarted = ContinuousClock.now
        let pageCursors = PageCursors(
            page, scope: CursorScope(riderID: riderID, filter: parameters.filter), codec: cursors
        )

        var writer = JSONWriter(capacity: 512 + page.trips.count * 1024)
        writer.beginObject()
        writer.tripPage(page, limit: parameters.limit.value, cursors: pageCursors) { trip in
            presenter.display(for: trip, locale: read.locale, timeZone: parameters.displayTimeZone)
        }
        writer.key("filter")
        writer.beginObject()
        writer.field("from", parameters.filter.range.from.map(RFC3339.format))
        writer.field("to", parameters.filter.range.to.map(RFC3339.format))
        writer.field("tz", parameters.displayTimeZone?.identifier)
        writer.field("status", parameters.filter.status?.rawValue)
        writer.endObject()
        writer.endObject()

        return CachedTripResponse(
            body: writer.byteBuffer,
            link: pageCursors.link { Self.listURL(riderID: riderID, parameters: parameters, cursor: $0) },
            locale: read.locale, database: encodingStarted - queryStarted, encodingStarted: encodingStarted
        )
    }

    func detail(_ request: Request, _ context: Context) async throws -> Response {
        let caller = try await tokens.caller(authorization: request.headers[.authorization])
        let read = try detailRead(
            caller: caller, riderID: context.parameters.get("rider_id"), tripID: context.parameters.get("trip_id"),
            query: request.uri.queryParameters, acceptLanguage: request.headers[.acceptLanguage]
        )
        return Response(try await answer(.detail(read), ifNoneMatch: request.headers[values: .ifNoneMatch]))
    }

    private func renderDetail(_ read: TripDetailRead) async throws -> CachedTripResponse {
        let queryStarted = ContinuousClock.now
        let trip = try await getTrip.execute(riderID: read.riderID, tripID: read.tripID, caller: read.caller)
        let encodingStarted = ContinuousClock.now
        var writer = JSONWriter(capacity: 1024)
        writer.trip(trip, display: presenter.display(for: trip, locale: read.locale, timeZone: read.timeZone))
        return CachedTripResponse(
            body: writer.byteBuffer, link: nil, locale: read.locale, database: encodingStarted - queryStarted,
            encodingStarted: encodingStarted
        )
    }

    private func detailRead(
        caller: Caller, riderID: (some StringProtocol)?, tripID: (some StringProtocol)?,
        query: FlatDictionary<Substring, Substring>, acceptLanguage: String?
    ) throws(Problem) -> TripDetailRead {
        let riderID = try Self.riderID(riderID)
        guard let tripID = tripID.flatMap({ TripID($0) }) else {
            throw Problem.invalidParameter("trip_id", "trip_id must be a positive integer written in decimal.")
        }
        let timeZone = try TripListParameters.parseTimeZone(query["tz"])
        let locale = localeNegotiator.bestMatch(acceptLanguage: acceptLanguage)
        return TripDetailRead(riderID: riderID, tripID: tripID, caller: caller, timeZone: timeZone, locale: locale)
    }

    /// How the event-loop shortcut (`EventLoopShortcut`) answers a list or detail read exactly as `list` or
    /// `detail` would: with the warm cache entry right now, or else with the computation the route would run
    /// (cache, use case, presenter, JSON), which throws where the route answers with a problem (database
    /// unavailable, a trip that is not there). Nil when the router should take the request: not such a read,
    /// a token not verified before, a problem found in the request, a caller who may not read these trips.
    /// The request is parsed and checked once for both.
    public func shortcutReply(to head: HTTPRequest) -> ShortcutReply? {
        guard let (read, route) = checkedRead(head),
            (try? Self.checkCanRead(riderID: read.riderID, caller: read.caller)) != nil
        else { return nil }
        let ifNoneMatch = head.headerFields[values: .ifNoneMatch]
        if let stored = cache?.storedValue(for: read.cacheKey, scope: read.riderID) {
            return .answer(
                ShortcutAnswer(route: route, response: Self.respond(stored, source: .hit, ifNoneMatch: ifNoneMatch)))
        }
        return .compute { ShortcutAnswer(route: route, response: try await answer(read, ifNoneMatch: ifNoneMatch)) }
    }

    /// A rider read named by a request head, with every check the route makes before the database passed;
    /// nil for anything else, including a token whose signature has not been verified before.
    private func checkedRead(_ head: HTTPRequest) -> (RiderRead, route: String)? {
        guard head.method == .get, let path = head.path,
            let caller = tokens.verifiedCaller(authorization: head.headerFields[.authorization])
        else { return nil }
        let uri = URI(path)
        let acceptLanguage = head.headerFields[.acceptLanguage]
        guard let readPath = RiderReadPath(uri.path) else { return nil }
        switch readPath {
        case .list(let riderText):
            guard
                let read = try? listRead(
                    caller: caller, riderID: riderText, query: uri.queryParameters, acceptLanguage: acceptLanguage
                )
            else { return nil }
            return (.list(read), readPath.route)
        case .detail(let riderText, let tripText):
            guard
                let read = try? detailRead(
                    caller: caller, riderID: riderText, tripID: tripText, query: uri.queryParameters,
                    acceptLanguage: acceptLanguage
                )
            else { return nil }
            return (.detail(read), readPath.route)
        }
    }

    func record(_ request: Request, _ context: Context) async throws -> Response {
        let caller = try await tokens.caller(authorization: request.headers[.authorization])
        // Refuse the wrong role before reading a body it could never use.
        do {
            try AccessPolicy.checkCanRecord(caller: caller)
        } catch {
            throw Problem(error)
        }
        guard let contentType = request.headers[.contentType],
            contentType.lowercased().hasPrefix("application/json")
        else {
            throw Problem(
                status: .unsupportedMediaType, code: .unsupportedMediaType, title: "Unsupported media type",
                detail: "Send the trip as application/json.", param: "Content-Type"
            )
        }
        var request = request
        let body = try await request.collectBody(upTo: TripRoutesLimits.maximumBodyBytes)
        let newTrip = try NewTripBody.decode(Array(buffer: body), decoder: bodyDecoder).newTrip()
        let recorded: RecordedTrip
        let recordStarted = ContinuousClock.now
        do {
            recorded = try await recordTrip.execute(
                newTrip, idempotencyKey: request.headers[TripHeaderNames.idempotencyKey], caller: caller
            )
        } catch {
            // The commit may have happened even though this request failed (e.g. the connection broke after it).
            cache?.invalidate(newTrip.riderID)
            throw error
        }
        // Before the response leaves: once the client sees 201, no read on this instance may miss the trip.
        cache?.invalidate(recorded.trip.riderID)
        let encodingStarted = ContinuousClock.now
        let locale = localeNegotiator.bestMatch(acceptLanguage: request.headers[.acceptLanguage])
        var writer = JSONWriter(capacity: 1024)
        writer.trip(recorded.trip, display: presenter.display(for: recorded.trip, locale: locale, timeZone: nil))
        let responseBody = writer.byteBuffer
        let location = "/v1/riders/\(recorded.trip.riderID)/trips/\(recorded.trip.id)"
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.location] = location
        headers[.contentLanguage] = locale.identifier
        headers[.cacheControl] = "no-store"
        if recorded.replayed { headers[TripHeaderNames.idempotentReplayed] = "true" }
        headers[ServerTiming.name] = ServerTiming.durations(
            queryStarted: recordStarted, encodingStarted: encodingStarted)
        return Response(status: .created, headers: headers, body: .init(byteBuffer: responseBody))
    }

    private static func riderID(_ text: (some StringProtocol)?) throws(Problem) -> RiderID {
        guard let riderID = text.flatMap({ RiderID($0) }) else {
            throw Problem.invalidParameter("rider_id", "rider_id must be a positive integer written in decimal.")
        }
        return riderID
    }

    /// The access rule of the use cases, applied before a cache lookup so that no stored response is ever
    /// served to a caller who could not compute it.
    private static func checkCanRead(riderID: RiderID, caller: Caller) throws(Problem) {
        do {
            try AccessPolicy.checkCanRead(riderID: riderID, caller: caller)
        } catch {
            throw Problem(error)
        }
    }

    /// A 200 with the stored body, or a 304 when `If-None-Match` matches its tag. Both carry the tag and the
    /// caching headers; the 304 has no body and no `Content-Type`. They are the headers built with the entry,
    /// with the `Server-Timing` of the computation unless this is a hit.
    private static func respond(
        _ response: CachedTripResponse, source: TripResponseCache.Source?, ifNoneMatch: [String]
    ) -> RenderedResponse {
        let notModified = EntityTag.ifNoneMatch(ifNoneMatch, matches: response.etag)
        var headers = notModified ? response.notModifiedHitHeaders : response.hitHeaders
        if source != .hit { headers[ServerTiming.name] = ServerTiming.value(for: response, source: source) }
        return RenderedResponse(
            status: notModified ? .notModified : .ok, headers: headers, body: notModified ? nil : response.body
        )
    }

    /// The list URL for a neighbouring page: the same normalized filter, with its cursor.
    private static func listURL(riderID: RiderID, parameters: TripListParameters, cursor: String) -> String {
        var items = ["limit=\(parameters.limit.value)"]
        if let from = parameters.filter.range.from { items.append("from=\(RFC3339.format(from))") }
        if let to = parameters.filter.range.to { items.append("to=\(RFC3339.format(to))") }
        if let zone = parameters.displayTimeZone { items.append("tz=\(QueryEncoding.escape(zone.identifier))") }
        if let status = parameters.filter.status { items.append("status=\(status.rawValue)") }
        items.append("cursor=\(cursor)")
        return "/v1/riders/\(riderID)/trips?" + items.joined(separator: "&")
    }
}

// Outside the generic `TripRoutes`: a type nested in a generic type is generic too, and building its metadata
// at run time on every request showed up in profiles of the hot path.

/// A list request, checked: everything its response depends on.
struct RiderListRead: Sendable {
    let riderID: RiderID
    let caller: Caller
    let parameters: TripListParameters
    let position: PagePosition?
    let locale: SupportedLocale

    var cacheKey: String {
        ResponseKey.list(view: ResponseKey.view(of: caller), riderID: riderID, parameters: parameters, locale: locale)
    }
}

/// A checked list or detail request.
enum RiderRead: Sendable {
    case list(RiderListRead)
    case detail(TripDetailRead)

    var riderID: RiderID {
        switch self {
        case .list(let read): return read.riderID
        case .detail(let read): return read.riderID
        }
    }

    var caller: Caller {
        switch self {
        case .list(let read): return read.caller
        case .detail(let read): return read.caller
        }
    }

    var cacheKey: String {
        switch self {
        case .list(let read): return read.cacheKey
        case .detail(let read): return read.cacheKey
        }
    }
}

/// A detail request, checked: everything its response depends on.
struct TripDetailRead: Sendable {
    let riderID: RiderID
    let tripID: TripID
    let caller: Caller
    let timeZone: TimeZone?
    let locale: SupportedLocale

    var cacheKey: String {
        ResponseKey.detail(
            view: ResponseKey.view(of: caller), riderID: riderID, tripID: tripID, timeZone: timeZone, locale: locale
        )
    }
}
