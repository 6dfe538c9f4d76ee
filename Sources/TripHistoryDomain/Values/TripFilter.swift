/// Which trips a list shows.
public struct TripFilter: Hashable, Sendable {
    public let range: DateRange
    /// Nil for every status.
    public let status: TripStatus?

    public static let all = TripFilter(range: .unbounded, status: nil)

    public init(range: DateRange, status: TripStatus?) {
        self.range = range
        self.status = status
    }

    /// Whether `trip` belongs in a list with this filter.
    public func matches(_ trip: Trip) -> Bool {
        range.contains(trip.requestedAt) && (status == nil || status == trip.status)
    }
}
