public import Foundation

/// A finished ride as the rider's history shows it: what was recorded, its life since (version, adjustment
/// totals) and, when read for a detail screen, its receipt and adjustments.
public struct Trip: Hashable, Sendable {
    public let id: TripID
    public let riderID: RiderID
    public let details: TripDetails
    public let lifecycle: TripLifecycle
    /// The receipt's parts as recorded; `.empty` on list rows, which never carry them.
    public let receipt: TripReceipt
    /// The ledger, oldest first, on a trip read for its detail; nil on list rows.
    public let adjustments: [Adjustment]?

    public init(
        id: TripID, riderID: RiderID, details: TripDetails, lifecycle: TripLifecycle,
        receipt: TripReceipt = .empty, adjustments: [Adjustment]? = nil
    ) {
        self.id = id
        self.riderID = riderID
        self.details = details
        self.lifecycle = lifecycle
        self.receipt = receipt
        self.adjustments = adjustments
    }

    public var status: TripStatus { details.status }
    public var requestedAt: Date { details.requestedAt }

    /// This trip as a list row carries it: without its receipt and adjustments.
    public var listRow: Trip { Trip(id: id, riderID: riderID, details: details, lifecycle: lifecycle) }

    /// What the rider paid in the end: the fare charged plus every adjustment.
    public var totalMinor: Int64 { details.fare.amountMinor + lifecycle.totals.sumMinor }
}

/// What changes about a trip after it was recorded.
public struct TripLifecycle: Hashable, Sendable {
    /// 1 when recorded, one more per adjustment.
    public let version: Int
    public let recordedAt: Date
    /// The time of the last adjustment; `recordedAt` until there is one.
    public let updatedAt: Date
    public let totals: AdjustmentTotals

    public init(version: Int, recordedAt: Date, updatedAt: Date, totals: AdjustmentTotals) {
        self.version = version
        self.recordedAt = recordedAt
        self.updatedAt = updatedAt
        self.totals = totals
    }

    /// A trip just recorded at `date`.
    public static func recorded(at date: Date) -> TripLifecycle {
        TripLifecycle(version: 1, recordedAt: date, updatedAt: date, totals: .none)
    }
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
