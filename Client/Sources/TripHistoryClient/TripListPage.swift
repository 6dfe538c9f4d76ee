import Foundation

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
    /// The filter's lower request-time bound as the service applied it (inclusive; a day bound resolved in the
    /// filter's zone); nil when open.
    public var requestedFrom: Date?
    /// The filter's upper request-time bound as the service applied it (exclusive); nil when open.
    public var requestedBefore: Date?

    /// Creates a page.
    public init(
        trips: [Trip], nextCursor: String?, previousCursor: String?, etag: String?, requestedFrom: Date? = nil,
        requestedBefore: Date? = nil
    ) {
        self.trips = trips
        self.nextCursor = nextCursor
        self.previousCursor = previousCursor
        self.etag = etag
        self.requestedFrom = requestedFrom
        self.requestedBefore = requestedBefore
    }

    /// Whether older trips remain.
    public var hasMore: Bool { nextCursor != nil }
}
