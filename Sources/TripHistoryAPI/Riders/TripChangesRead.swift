public import HTTPTypes
public import TripHistoryDomain
public import TripHistoryPresentation

/// `GET /v1/riders/{rider_id}/trips/changes`: the rider's changes feed after the position its `since` token
/// names (from the start without one), and the token of the next read.
public struct TripChangesRead: RiderRead {
    public let grant: RiderReadGrant
    public let locale: SupportedLocale
    /// The token as sent; nil for a read from the start.
    let since: String?
    /// The position `since` names, once the token is checked; nil for a read from the start, or a token not
    /// checked yet.
    let position: ChangePosition?
    let limit: ChangePageLimit

    /// Checks the path, the query and the `since` token in the order their problems are reported, then access.
    /// For a lookup, the token is kept as sent and not decoded (its position is nil): a stored response was
    /// stored under this exact token, checked when it was computed, so a token past its retention may be
    /// answered from the cache for at most the cache's TTL. A read to compute checks it (`completingChecks`).
    public static func check<Repository>(
        _ path: RiderReadPath, head: HTTPRequest, caller: Caller, in trips: RiderTrips<Repository>, forLookup: Bool
    ) throws(Problem) -> TripChangesRead {
        let riderID = try RiderTrips<Repository>.riderID(path.riderID)
        let query = try QueryParameters(target: head.path ?? "")
        try TripListParameters.rejectRepeated(["since", "limit"], in: query)
        let limit = try ChangePageLimit.parse(query["limit"])
        var position: ChangePosition?
        let since = query["since"]
        if let since, !forLookup { position = try Self.position(since: since, riderID: riderID, in: trips) }
        let grant = try RiderTrips<Repository>.grantRead(riderID: riderID, caller: caller)
        return TripChangesRead(
            grant: grant, locale: trips.locale(of: head), since: since.map(String.init), position: position,
            limit: limit)
    }

    /// The read with its token checked, when a lookup left it unchecked.
    public func completingChecks<Repository>(in trips: RiderTrips<Repository>) throws(Problem) -> TripChangesRead? {
        guard let since, position == nil else { return nil }
        return TripChangesRead(
            grant: grant, locale: locale, since: since,
            position: try Self.position(since: since, riderID: riderID, in: trips), limit: limit)
    }

    public var cacheKey: String {
        ResponseKey.changes(
            view: ResponseKey.view(of: caller), riderID: riderID, since: since, limit: limit.value, locale: locale)
    }

    /// The changes (`ListTripChanges`) as JSON, with the token of the next read.
    public func render<Repository>(in trips: RiderTrips<Repository>) async throws -> CachedTripResponse {
        // A token never decoded would read as "now": only a checked one is rendered.
        guard since == nil || position != nil else { throw Problem.invalidSyncToken }
        let queryStarted = ContinuousClock.now
        let page = try await trips.listTripChanges.execute(grant, after: position, limit: limit.value)
        let encodingStarted = ContinuousClock.now
        var writer = JSONWriter(capacity: 256 + page.changes.count * 1024)
        let nextSince = trips.syncTokens.encode(page.next, riderID: riderID, now: trips.now())
        writer.changesPage(page, nextSince: nextSince) { trip in
            trips.presenter.display(for: trip, locale: locale, timeZone: nil)
        }
        return CachedTripResponse(
            body: writer.byteBuffer, link: nil, locale: locale, database: encodingStarted - queryStarted,
            encodingStarted: encodingStarted, reportsTiming: reportsTiming
        )
    }

    /// The position `since` names in `riderID`'s feed, once its signature, feed, rider and age are checked.
    private static func position<Repository>(
        since: some StringProtocol, riderID: RiderID, in trips: RiderTrips<Repository>
    ) throws(Problem) -> ChangePosition {
        do {
            return try trips.syncTokens.decode(
                since, riderID: riderID, now: trips.now(), retention: trips.changesRetention)
        } catch {
            throw Problem.syncToken(error, retention: trips.changesRetention)
        }
    }
}
