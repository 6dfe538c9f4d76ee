public import Foundation
public import TripHistoryDomain

/// Trips of many riders, cities, products and statuses for the analyst tests, deterministic per index.
public enum InMemoryAnalystFixtures {
    public static let cities = ["Paris", "New York", "Tokyo, \"Shibuya\""]
    public static let products = ["UberX", "Comfort"]
    /// The first request time of `mixed`: 2026-01-01T00:00:00Z.
    public static let start = Date(timeIntervalSince1970: 1_767_225_600)

    /// A trip of `rider` in `city`; the addresses hold commas, quotes and line breaks to exercise CSV quoting.
    public static func newTrip(
        rider: Int64, city: String, product: String = "UberX", status: TripStatus = .completed,
        requestedAt: Date, currency: String = "EUR", fare: Int64 = 1500, distance: Int64 = 4000, duration: Int64 = 900,
        pickupAddress: String = "1 Rue de Rivoli, Paris", dropoffAddress: String = "Café \"Le Procope\"\r\n13 Rue",
        receipt: TripReceipt = .empty
    ) -> NewTrip {
        try! NewTrip.validated(
            riderID: RiderID(rider)!, status: status, product: product, city: city, timeZone: "Europe/Paris",
            requestedAt: requestedAt, startedAt: requestedAt.addingTimeInterval(120),
            completedAt: status == .completed ? requestedAt.addingTimeInterval(120 + Double(duration)) : nil,
            pickup: Place(latitude: 48.856613, longitude: 2.352222, address: pickupAddress),
            dropoff: Place(latitude: 48.8738, longitude: -0.1, address: dropoffAddress),
            distanceMeters: distance, durationSeconds: status == .completed ? duration : 0,
            fare: Money(amountMinor: fare, currency: CurrencyCode(currency)!), receipt: receipt
        )
    }

    /// The `index`-th trip of the mixed set, cycling riders 1...5, the cities, products and statuses, three
    /// trips per request time so that ties on `requested_at` matter, spread over 60 days.
    public static func mixedNewTrip(
        _ index: Int, cities: [String] = cities, riders: [Int64] = [1, 2, 3, 4, 5]
    ) -> NewTrip {
        let slot = index / 3
        let time = start.addingTimeInterval(Double(slot % 60) * 86_400 + Double(slot * 3637 % 86_400))
        let city = cities[index % cities.count]
        return newTrip(
            rider: riders[index % riders.count], city: city, product: products[index / 2 % products.count],
            status: index % 7 == 3 ? .canceled : .completed, requestedAt: time,
            currency: city.hasPrefix("New York") ? "USD" : city.hasPrefix("Tokyo") ? "JPY" : "EUR",
            fare: Int64(900 + index * 37 % 2000), distance: Int64(1000 + index * 113 % 9000),
            duration: Int64(300 + index * 17 % 1500),
            pickupAddress: index % 4 == 0 ? "12, Rue \"Saint\"\nHonoré" : "1 Rue de Rivoli"
        )
    }

    /// `count` stored trips with ids 1...count.
    public static func mixed(count: Int) -> [Trip] {
        (0..<count).map { index in
            let new = mixedNewTrip(index)
            return Trip(
                id: TripID(Int64(index + 1))!, riderID: new.riderID, details: new.details,
                lifecycle: .recorded(at: new.details.requestedAt))
        }
    }
}
