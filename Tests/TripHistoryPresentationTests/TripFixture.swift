import Foundation
import Testing
import TripHistoryDomain

/// Builds trips for the presenter tests; every field has a plausible default so a test states only what
/// it is about.
enum TripFixture {
    static func instant(_ iso8601: String) throws -> Date {
        try Date(iso8601, strategy: .iso8601)
    }

    static func trip(
        status: TripStatus = .completed,
        city: String = "New York",
        timeZone: String = "America/New_York",
        requestedAt: String = "2026-03-01T19:05:00Z",
        dropoffAddress: String = "350 5th Ave, New York, NY 10118",
        distanceMeters: Int64 = 5230,
        durationSeconds: Int64 = 1260,
        fareMinor: Int64 = 1834,
        currency: String = "USD"
    ) throws -> Trip {
        let requested = try instant(requestedAt)
        let details = TripDetails(
            status: status, product: "UberX", city: city, timeZone: timeZone,
            requestedAt: requested, startedAt: requested.addingTimeInterval(240),
            completedAt: status == .completed ? requested.addingTimeInterval(240 + Double(durationSeconds)) : nil,
            pickup: Place(latitude: 40.7527, longitude: -73.9772, address: "89 E 42nd St, New York, NY 10017"),
            dropoff: Place(latitude: 40.7484, longitude: -73.9857, address: dropoffAddress),
            distanceMeters: distanceMeters, durationSeconds: durationSeconds,
            fare: Money(amountMinor: fareMinor, currency: try #require(CurrencyCode(currency)))
        )
        return Trip(
            id: try #require(TripID(Int64(42))), riderID: try #require(RiderID(Int64(7))), details: details,
            lifecycle: .recorded(at: requested))
    }
}
