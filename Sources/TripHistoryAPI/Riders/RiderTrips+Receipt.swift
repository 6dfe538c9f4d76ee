import Foundation
import NIOCore
import TripHistoryDomain
import TripHistoryPresentation

extension RiderTrips {
    /// The receipt of a trip read as its detail is, in `format`: the `Receipt` JSON or the printable page.
    func renderReceipt(
        _ tripID: TripID, timeZone: TimeZone?, format: ReceiptFormat, read: RiderTripsRead
    ) async throws -> CachedTripResponse {
        let queryStarted = ContinuousClock.now
        let trip = try await getTrip.execute(read.grant, tripID: tripID)
        let encodingStarted = ContinuousClock.now
        let receipt = presenter.receipt(for: trip, locale: read.locale, timeZone: timeZone)
        let body: ByteBuffer
        switch format {
        case .json:
            var writer = JSONWriter(capacity: 1024)
            writer.receipt(receipt, tripID: tripID)
            body = writer.byteBuffer
        case .html:
            body = try receiptPage.render(receipt, tripID: tripID)
        }
        return CachedTripResponse(
            body: body, link: nil, locale: read.locale, database: encodingStarted - queryStarted,
            encodingStarted: encodingStarted, reportsTiming: read.reportsTiming,
            representation: format.representation(policy: receiptPage.contentSecurityPolicy))
    }
}
