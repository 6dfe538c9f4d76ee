/// One page of a trip list, newest first, with where the neighbouring pages start.
public struct TripPage: Hashable, Sendable {
    public let trips: [Trip]
    /// Start of the page of older trips; nil when nothing older matches.
    public let next: PagePosition?
    /// Start of the page of newer trips just before this one; nil on the first page.
    public let previous: PagePosition?

    public init(trips: [Trip], next: PagePosition?, previous: PagePosition?) {
        self.trips = trips
        self.next = next
        self.previous = previous
    }

    /// Whether older trips remain beyond this page.
    public var hasMore: Bool { next != nil }
}
