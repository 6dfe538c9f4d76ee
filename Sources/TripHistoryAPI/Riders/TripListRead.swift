public import HTTPTypes
public import TripHistoryDomain
public import TripHistoryPresentation

/// `GET /v1/riders/{rider_id}/trips`: a page of a rider's trips, newest first, under the query's filter, from
/// its cursor.
public struct TripListRead: RiderRead {
    public let grant: RiderReadGrant
    public let locale: SupportedLocale
    let parameters: TripListParameters
    /// What the page's cursors are bound to, when the request's cursor was checked against it; the page's
    /// cursors are then signed with the same value instead of hashing it again.
    let scope: CursorScope?
    let position: PagePosition?

    /// Checks the path, the query and the cursor in the order their problems are reported, then access.
    public static func check<Repository>(
        _ path: RiderReadPath, head: HTTPRequest, caller: Caller, in trips: RiderTrips<Repository>, forLookup: Bool
    ) throws(Problem) -> TripListRead {
        let riderID = try RiderTrips<Repository>.riderID(path.riderID)
        let parameters = try TripListParameters.parse(QueryParameters(target: head.path ?? ""))
        // The scope is hashed only when a cursor is to be checked; a first page hashes it when it renders.
        var scope: CursorScope?
        var position: PagePosition?
        if let cursor = parameters.cursor {
            let checked = CursorScope(riderID: riderID, filter: parameters.filter)
            position = try trips.cursors.position(cursor, scope: checked)
            scope = checked
        }
        let grant = try RiderTrips<Repository>.grantRead(riderID: riderID, caller: caller)
        return TripListRead(
            grant: grant, locale: trips.locale(of: head), parameters: parameters, scope: scope, position: position)
    }

    public var cacheKey: String {
        ResponseKey.list(view: ResponseKey.view(of: caller), riderID: riderID, parameters: parameters, locale: locale)
    }

    /// The page (`ListRiderTrips`) as JSON, with the `Link` header of its neighbours.
    public func render<Repository>(in trips: RiderTrips<Repository>) async throws -> CachedTripResponse {
        let queryStarted = ContinuousClock.now
        let page = try await trips.listRiderTrips.execute(
            grant, filter: parameters.filter, limit: parameters.limit, position: position, count: parameters.count)
        let encodingStarted = ContinuousClock.now
        let scope = scope ?? CursorScope(riderID: riderID, filter: parameters.filter)
        let pageCursors = PageCursors(page, scope: scope, codec: trips.cursors)
        var writer = JSONWriter(capacity: 512 + page.trips.count * 1024)
        writer.listPage(page, limit: parameters.limit.value, cursors: pageCursors) { trip in
            trips.presenter.display(for: trip, locale: locale, timeZone: parameters.displayTimeZone)
        } filter: { writer in
            parameters.write(to: &writer)
        }
        return CachedTripResponse(
            body: writer.byteBuffer,
            link: pageCursors.link { parameters.url(riderID: riderID, cursor: $0) },
            locale: locale, database: encodingStarted - queryStarted, encodingStarted: encodingStarted,
            reportsTiming: reportsTiming
        )
    }
}
