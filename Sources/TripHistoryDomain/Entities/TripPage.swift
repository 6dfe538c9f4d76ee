/// One page of a trip list, newest first, with where the neighbouring pages start.
public struct TripPage: Hashable, Sendable {
    public let trips: [Trip]
    /// Start of the page of older trips; nil when nothing older matches.
    public let next: PagePosition?
    /// Start of the page of newer trips just before this one; nil on the first page.
    public let previous: PagePosition?
    /// How many trips the list's filter matches, when the request asked for a count.
    public let total: TripCount?

    public init(trips: [Trip], next: PagePosition?, previous: PagePosition?, total: TripCount? = nil) {
        self.trips = trips
        self.next = next
        self.previous = previous
        self.total = total
    }

    /// This page with `total`.
    public func counted(_ total: TripCount?) -> TripPage {
        TripPage(trips: trips, next: next, previous: previous, total: total)
    }

    /// Whether older trips remain beyond this page.
    public var hasMore: Bool { next != nil }
}
