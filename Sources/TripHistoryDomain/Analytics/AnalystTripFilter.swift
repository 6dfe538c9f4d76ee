public import Foundation

/// Which trips an analyst query reads: a bounded request-time range across all riders, narrowed by optional
/// equality filters. Built on the rider list's `TripFilter`, so range and status mean the same in both.
public struct AnalystTripFilter: Hashable, Sendable {
    /// The range (both ends set) and the status.
    public let base: TripFilter
    /// Exact city name as recorded, nil for every city.
    public let city: String?
    /// Exact product name as recorded, nil for every product.
    public let product: String?
    /// One rider only, nil for all riders.
    public let riderID: RiderID?

    /// Fails with `ValidationError` on `from` or `to` when the range is open on either side: an analyst
    /// query always names the window it scans.
    public init(
        range: DateRange, status: TripStatus? = nil, city: String? = nil, product: String? = nil,
        riderID: RiderID? = nil
    ) throws(ValidationError) {
        guard range.from != nil else { throw ValidationError(field: "from", reason: "is required") }
        guard range.to != nil else { throw ValidationError(field: "to", reason: "is required") }
        base = TripFilter(range: range, status: status)
        self.city = city
        self.product = product
        self.riderID = riderID
    }

    public var range: DateRange { base.range }
    public var status: TripStatus? { base.status }
    /// The inclusive lower bound, always set.
    public var from: Date { range.from! }
    /// The exclusive upper bound, always set.
    public var to: Date { range.to! }

    /// Whether `trip` belongs to the result of a query with this filter.
    public func matches(_ trip: Trip) -> Bool {
        base.matches(trip)
            && (city == nil || city == trip.details.city)
            && (product == nil || product == trip.details.product)
            && (riderID == nil || riderID == trip.riderID)
    }
}
