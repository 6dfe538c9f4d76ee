import Foundation
public import HTTPTypes
public import TripHistoryDomain
public import TripHistoryPresentation

/// `GET /v1/riders/{rider_id}/trips/{trip_id}`: one trip, displayed in the query's `tz`.
public struct TripDetailRead: RiderRead {
    public let grant: RiderReadGrant
    public let locale: SupportedLocale
    let tripID: TripID
    let timeZone: TimeZone?

    /// Checks the path and the query in the order their problems are reported, then access.
    public static func check<Repository>(
        _ path: RiderReadPath, head: HTTPRequest, caller: Caller, in trips: RiderTrips<Repository>, forLookup: Bool
    ) throws(Problem) -> TripDetailRead {
        let riderID = try RiderTrips<Repository>.riderID(path.riderID)
        guard let tripID = path.tripID.flatMap({ TripID($0) }) else {
            throw Problem.invalidParameter("trip_id", "trip_id must be a positive integer written in decimal.")
        }
        let timeZone = try TripListParameters.parseTimeZone(QueryParameters(target: head.path ?? "")["tz"])
        let grant = try Problem.enforce { () throws(TripHistoryError) in
            try AccessPolicy.readTrip(riderID: riderID, caller: caller)
        }
        return TripDetailRead(grant: grant, locale: trips.locale(of: head), tripID: tripID, timeZone: timeZone)
    }

    public var cacheKey: String {
        ResponseKey.detail(
            view: ResponseKey.view(of: caller), riderID: riderID, tripID: tripID, timeZone: timeZone, locale: locale)
    }

    /// The trip (`GetTrip`) as JSON, its tag prefixed with its version for `If-Match`.
    public func render<Repository>(in trips: RiderTrips<Repository>) async throws -> CachedTripResponse {
        let queryStarted = ContinuousClock.now
        let trip = try await trips.getTrip.execute(grant, tripID: tripID)
        let encodingStarted = ContinuousClock.now
        var writer = JSONWriter(capacity: 2048)
        writer.trip(trip, display: trips.presenter.display(for: trip, locale: locale, timeZone: timeZone))
        return CachedTripResponse(
            body: writer.byteBuffer, link: nil, locale: locale, database: encodingStarted - queryStarted,
            encodingStarted: encodingStarted, reportsTiming: reportsTiming, version: trip.lifecycle.version
        )
    }
}
