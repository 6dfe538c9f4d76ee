/// One page of a rider's trips, newest first, with the cursors to its neighbours.
public struct TripListPage: Sendable, Hashable {
    /// The trips of the page, newest first.
    public var trips: [Trip]
    /// Leads to the page of older trips; nil at the end.
    public var nextCursor: String?
    /// Leads to the page of newer trips; nil on the first page.
    public var previousCursor: String?
    /// The response's entity tag, which a refresh of the first page sends back.
    public var etag: String?

    /// Creates a page.
    public init(trips: [Trip], nextCursor: String?, previousCursor: String?, etag: String?) {
        self.trips = trips
        self.nextCursor = nextCursor
        self.previousCursor = previousCursor
        self.etag = etag
    }

    /// Whether older trips remain.
    public var hasMore: Bool { nextCursor != nil }
}
