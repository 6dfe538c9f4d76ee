/// What a pull-to-refresh of `TripListViewModel` fetched and changed, for diagnostics and tests.
public struct TripListRefreshReport: Sendable, Equatable {
    /// How the list was brought up to date.
    public enum Source: Sendable, Equatable {
        /// The changes feed since the kept token (a `304` when nothing changed).
        case changes
        /// The first page again: no token was kept (the feed could not be reached at the first load), or the
        /// service refused it (`TripHistoryError.isSyncTokenRefused`).
        case firstPage
    }

    /// How the list was brought up to date.
    public var source: Source
    /// The calls the refresh made to the service; a call the retry policy repeated counts once.
    public var requests: Int
    /// The trips the answers carried: the feed's upserts, or the trips of a new first page (0 after a `304`).
    public var tripsTransferred: Int
    /// The erased ids the feed carried.
    public var erasedTransferred: Int
    /// Trips of the list replaced by a newer version.
    public var replaced: Int
    /// Trips put in their place that the list did not hold.
    public var inserted: Int
    /// Trips dropped from the list: erased, or no longer matching the filter.
    public var removed: Int

    /// A report; the list model makes these.
    public init(
        source: Source, requests: Int, tripsTransferred: Int, erasedTransferred: Int = 0, replaced: Int = 0,
        inserted: Int = 0, removed: Int = 0
    ) {
        self.source = source
        self.requests = requests
        self.tripsTransferred = tripsTransferred
        self.erasedTransferred = erasedTransferred
        self.replaced = replaced
        self.inserted = inserted
        self.removed = removed
    }
}
