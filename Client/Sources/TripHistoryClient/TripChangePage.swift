/// One answer of a rider's changes feed: the changes since the token sent, and the token to send next.
public struct TripChangePage: Sendable, Hashable {
    /// The changes, oldest first; entries of a kind this version of the API does not know are left out.
    public var changes: [TripChange]
    /// The token of the next call (`since`); keep the latest, also when `changes` is empty.
    public var nextSince: String
    /// Whether more changes wait behind `nextSince`: call again at once with it.
    public var hasMore: Bool
    /// The answer's entity tag, which the next call with `nextSince` sends back to get a `304` when nothing
    /// changed.
    public var etag: String?

    /// Creates a page.
    public init(changes: [TripChange], nextSince: String, hasMore: Bool, etag: String?) {
        self.changes = changes
        self.nextSince = nextSince
        self.hasMore = hasMore
        self.etag = etag
    }
}
