public import HTTPTypes
import NIOCore
public import TripHistoryDomain
public import TripHistoryPresentation

/// `GET /v1/riders/{rider_id}/trips/{trip_id}/receipt`: a trip's receipt, read as its detail is (the same
/// checks and access), in the representation `Accept` prefers: the `Receipt` JSON or the printable page.
public struct TripReceiptRead: RiderRead {
    /// The trip, checked as its detail read.
    let trip: TripDetailRead
    let format: ReceiptFormat

    public var grant: RiderReadGrant { trip.grant }
    public var locale: SupportedLocale { trip.locale }

    /// The detail's checks, then the representation `Accept` asks for.
    public static func check<Repository>(
        _ path: RiderReadPath, head: HTTPRequest, caller: Caller, in trips: RiderTrips<Repository>, forLookup: Bool
    ) throws(Problem) -> TripReceiptRead {
        let trip = try TripDetailRead.check(path, head: head, caller: caller, in: trips, forLookup: forLookup)
        let format = try ReceiptFormat.negotiate(
            accept: head.headerFields.value(of: .accept), offered: ReceiptFormat.offered)
        return TripReceiptRead(trip: trip, format: format)
    }

    /// The trip's key, in the receipts' namespace, with the representation.
    public var cacheKey: String {
        ResponseKey.receipt(
            view: ResponseKey.view(of: caller), riderID: riderID, tripID: trip.tripID, timeZone: trip.timeZone,
            locale: locale, format: format)
    }

    /// The trip (`GetTrip`) as its receipt, in `format`.
    public func render<Repository>(in trips: RiderTrips<Repository>) async throws -> CachedTripResponse {
        let queryStarted = ContinuousClock.now
        let stored = try await trips.getTrip.execute(grant, tripID: trip.tripID)
        let encodingStarted = ContinuousClock.now
        let receipt = trips.presenter.receipt(for: stored, locale: locale, timeZone: trip.timeZone)
        let body: ByteBuffer
        switch format {
        case .json:
            var writer = JSONWriter(capacity: 1024)
            writer.receipt(receipt, tripID: trip.tripID)
            body = writer.byteBuffer
        case .html:
            body = try trips.receiptPage.render(receipt, tripID: trip.tripID)
        }
        return CachedTripResponse(
            body: body, link: nil, locale: locale, database: encodingStarted - queryStarted,
            encodingStarted: encodingStarted, reportsTiming: reportsTiming,
            representation: format.representation(policy: trips.receiptPage.contentSecurityPolicy))
    }
}
