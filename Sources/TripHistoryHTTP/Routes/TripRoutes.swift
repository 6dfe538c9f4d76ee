import Foundation
import HTTPTypes
import Hummingbird
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
    private let bodyDecoder = JSONDecoder()

    public init(
        listRiderTrips: ListRiderTrips<Repository>, getTrip: GetTrip<Repository>, recordTrip: RecordTrip<Repository>,
        presenter: TripPresenter, localeNegotiator: LocaleNegotiator, tokens: AccessTokens, cursors: CursorCodec
    ) {
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
        router.rejectOtherMethods("/v1/trips", allowed: [.post])
    }

    func list(_ request: Request, _ context: Context) async throws -> Response {
        let caller = try await tokens.caller(authorization: request.headers[.authorization])
        let riderID = try Self.riderID(context)
        let parameters = try TripListParameters.parse(request.uri.queryParameters)
        let scope = CursorScope(riderID: riderID, filter: parameters.filter)
        let position = try parameters.cursor.map { cursor throws(Problem) in
            try Self.decodeCursor(cursor, scope: scope, cursors: cursors)
        }
        let page = try await listRiderTrips.execute(
            riderID: riderID, filter: parameters.filter, limit: parameters.limit, position: position, caller: caller
        )
        let locale = localeNegotiator.bestMatch(acceptLanguage: request.headers[.acceptLanguage])
        let nextCursor = page.next.map { cursors.encode($0, scope: scope) }
        let previousCursor = page.previous.map { cursors.encode($0, scope: scope) }

        var writer = JSONWriter(capacity: 512 + page.trips.count * 1024)
        writer.beginObject()
        writer.key("data")
        writer.beginArray()
        for trip in page.trips {
            writer.trip(trip, display: presenter.display(for: trip, locale: locale, timeZone: parameters.displayTimeZone))
        }
        writer.endArray()
        writer.key("page")
        writer.beginObject()
        writer.field("limit", parameters.limit.value)
        writer.field("has_more", page.hasMore)
        writer.field("next_cursor", nextCursor)
        writer.field("prev_cursor", previousCursor)
        writer.endObject()
        writer.key("filter")
        writer.beginObject()
        writer.field("from", parameters.filter.range.from.map(RFC3339.format))
        writer.field("to", parameters.filter.range.to.map(RFC3339.format))
        writer.field("tz", parameters.displayTimeZone?.identifier)
        writer.field("status", parameters.filter.status?.rawValue)
        writer.endObject()
        writer.endObject()

        var headers = Self.perRiderHeaders(locale: locale)
        var links: [String] = []
        for (cursor, relation) in [(nextCursor, "next"), (previousCursor, "prev")] {
            guard let cursor else { continue }
            links.append("<\(Self.listURL(riderID: riderID, parameters: parameters, cursor: cursor))>; rel=\"\(relation)\"")
        }
        if !links.isEmpty { headers[TripHeaderNames.link] = links.joined(separator: ", ") }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: writer.bytes)))
    }

    func detail(_ request: Request, _ context: Context) async throws -> Response {
        let caller = try await tokens.caller(authorization: request.headers[.authorization])
        let riderID = try Self.riderID(context)
        guard let tripID = context.parameters.get("trip_id").flatMap({ TripID($0) }) else {
            throw Problem.invalidParameter("trip_id", "trip_id must be a positive integer written in decimal.")
        }
        let timeZone = try TripListParameters.parseTimeZone(request.uri.queryParameters["tz"])
        let trip = try await getTrip.execute(riderID: riderID, tripID: tripID, caller: caller)
        let locale = localeNegotiator.bestMatch(acceptLanguage: request.headers[.acceptLanguage])
        var writer = JSONWriter(capacity: 1024)
        writer.trip(trip, display: presenter.display(for: trip, locale: locale, timeZone: timeZone))
        return Response(
            status: .ok, headers: Self.perRiderHeaders(locale: locale),
            body: .init(byteBuffer: ByteBuffer(bytes: writer.bytes))
        )
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
        let recorded = try await recordTrip.execute(
            newTrip, idempotencyKey: request.headers[TripHeaderNames.idempotencyKey], caller: caller
        )
        let locale = localeNegotiator.bestMatch(acceptLanguage: request.headers[.acceptLanguage])
        var writer = JSONWriter(capacity: 1024)
        writer.trip(recorded.trip, display: presenter.display(for: recorded.trip, locale: locale, timeZone: nil))
        let location = "/v1/riders/\(recorded.trip.riderID)/trips/\(recorded.trip.id)"
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.location] = location
        headers[.contentLanguage] = locale.identifier
        headers[.cacheControl] = "no-store"
        if recorded.replayed { headers[TripHeaderNames.idempotentReplayed] = "true" }
        return Response(status: .created, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: writer.bytes)))
    }

    private static func decodeCursor(
        _ cursor: Substring, scope: CursorScope, cursors: CursorCodec
    ) throws(Problem) -> PagePosition {
        do {
            return try cursors.decode(cursor, scope: scope)
        } catch {
            switch error {
            case .invalid: throw Problem.invalidCursor
            case .mismatch: throw Problem.cursorMismatch
            }
        }
    }

    private static func riderID(_ context: Context) throws(Problem) -> RiderID {
        guard let riderID = context.parameters.get("rider_id").flatMap({ RiderID($0) }) else {
            throw Problem.invalidParameter("rider_id", "rider_id must be a positive integer written in decimal.")
        }
        return riderID
    }

    /// Headers of responses that belong to one rider: no shared cache may keep them, and they differ by
    /// token and language.
    private static func perRiderHeaders(locale: SupportedLocale) -> HTTPFields {
        [
            .contentType: "application/json",
            .contentLanguage: locale.identifier,
            .cacheControl: "private, no-cache",
            .vary: "Authorization, Accept-Language",
        ]
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
