public import Foundation

/// A finished ride as the rider's history shows it.
public struct Trip: Hashable, Sendable {
    public let id: TripID
    public let riderID: RiderID
    public let details: TripDetails

    public init(id: TripID, riderID: RiderID, details: TripDetails) {
        self.id = id
        self.riderID = riderID
        self.details = details
    }

    public var status: TripStatus { details.status }
    public var requestedAt: Date { details.requestedAt }
}

/// Everything recorded about a trip except the identifiers, shared by stored trips and new ones.
public struct TripDetails: Hashable, Sendable {
    public let status: TripStatus
    /// The product the rider booked, e.g. "UberX" or "Comfort".
    public let product: String
    public let city: String
    /// The IANA zone the trip took place in, used to show its local time.
    public let timeZone: String
    public let requestedAt: Date
    public let startedAt: Date
    /// Nil exactly when the trip was canceled.
    public let completedAt: Date?
    public let pickup: Place
    public let dropoff: Place
    public let distanceMeters: Int64
    public let durationSeconds: Int64
    public let fare: Money

    public init(
        status: TripStatus, product: String, city: String, timeZone: String,
        requestedAt: Date, startedAt: Date, completedAt: Date?,
        pickup: Place, dropoff: Place, distanceMeters: Int64, durationSeconds: Int64, fare: Money
    ) {
        self.status = status
        self.product = product
        self.city = city
        self.timeZone = timeZone
        self.requestedAt = requestedAt
        self.startedAt = startedAt
        self.completedAt = completedAt
        self.pickup = pickup
        self.dropoff = dropoff
        self.distanceMeters = distanceMeters
        self.durationSeconds = durationSeconds
        self.fare = fare
    }
}
