public import Foundation
public import TripHistoryDomain

/// Ready-made trips for tests.
public enum TripFixtures {
    /// A completed New York trip; every field can be varied by the arguments that tests care about.
    public static func newTrip(
        riderID: Int64 = 1,
        requestedAt: Date = Date(timeIntervalSince1970: 1_772_400_000),
        status: TripStatus = .completed,
        city: String = "New York",
        timeZone: String = "America/New_York",
        fare: Money = Money(amountMinor: 1834, currency: CurrencyCode("USD")!),
        distanceMeters: Int64 = 5230,
        durationSeconds: Int64 = 1260,
        dropoffAddress: String = "350 5th Ave, New York, NY 10118"
    ) -> NewTrip {
        let started = requestedAt.addingTimeInterval(240)
        return try! NewTrip.validated(
            riderID: RiderID(riderID)!, status: status, product: "UberX", city: city, timeZone: timeZone,
            requestedAt: requestedAt, startedAt: started,
            completedAt: status == .completed ? started.addingTimeInterval(Double(durationSeconds)) : nil,
            pickup: Place(latitude: 40.7128, longitude: -74.006, address: "1 Centre St, New York, NY 10007"),
            dropoff: Place(latitude: 40.7484, longitude: -73.9857, address: dropoffAddress),
            distanceMeters: distanceMeters, durationSeconds: durationSeconds, fare: fare
        )
    }

    /// A `POST /v1/trips` body for a completed New York trip (the fields of `newTrip()`), requested, started
    /// and completed at `requestedAt` (RFC 3339 text, passed through as written).
    public static func recordBody(
        rider: some CustomStringConvertible, requestedAt: String, distance: Int = 5230
    ) -> String {
        """
        {"rider_id": "\(rider)", "status": "completed", "product": "UberX", "city": "New York",
         "time_zone": "America/New_York", "requested_at": "\(requestedAt)", "started_at": "\(requestedAt)",
         "completed_at": "\(requestedAt)",
         "pickup": {"lat": 40.7128, "lon": -74.006, "address": "1 Centre St, New York, NY"},
         "dropoff": {"lat": 40.7484, "lon": -73.9857, "address": "350 5th Ave, New York, NY"},
         "distance_m": \(distance), "duration_s": 1260, "fare": {"amount_minor": 1834, "currency": "USD"}}
        """
    }

    /// A stored trip with an explicit id.
    public static func trip(id: Int64, riderID: Int64 = 1, requestedAt: Date, status: TripStatus = .completed) -> Trip {
        let new = newTrip(riderID: riderID, requestedAt: requestedAt, status: status)
        return Trip(
            id: TripID(id)!, riderID: new.riderID, details: new.details, lifecycle: .recorded(at: requestedAt))
    }

    /// `count` trips of one rider with ids 1...count, several sharing each request time, so that ties matter.
    public static func history(riderID: Int64 = 1, count: Int, sharedTimes: Int = 3, firstID: Int64 = 1) -> [Trip] {
        (0..<count).map { index in
            let time = Date(timeIntervalSince1970: 1_700_000_000 + Double(index / sharedTimes) * 3600)
            return trip(
                id: firstID + Int64(index), riderID: riderID, requestedAt: time,
                status: index % 20 == 7 ? .canceled : .completed)
        }
    }
}
