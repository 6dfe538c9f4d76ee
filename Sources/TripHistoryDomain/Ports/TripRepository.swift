/// The store of trips. Implementations must read a consistent snapshot per call and return trips in the
/// order the query's direction reads them.
public protocol TripRepository: Sendable {
    /// Up to `query.fetchLimit` trips matching the filter, strictly beyond `query.position` in its direction:
    /// newest first for `.older` (and for a first page), oldest first for `.newer`.
    func trips(matching query: TripPageQuery) async throws -> [Trip]

    /// The rider's trip with this id, or nil when there is none for this rider.
    func trip(id: TripID, riderID: RiderID) async throws -> Trip?

    /// Stores a new trip, at most once per idempotency key. Throws `TripHistoryError.idempotencyKeyReused`
    /// when the key was used for another body and `.conflict` while the key's first request is still running.
    func record(_ trip: NewTrip, idempotency: IdempotencyRequest?) async throws -> RecordedTrip
}

/// One read of a trip history page, as the repository sees it.
public struct TripPageQuery: Hashable, Sendable {
    public let riderID: RiderID
    public let filter: TripFilter
    public let position: PagePosition?
    /// Rows to return at most; the use case asks for one more than the page size to learn whether more exist.
    public let fetchLimit: Int

    public init(riderID: RiderID, filter: TripFilter, position: PagePosition?, fetchLimit: Int) {
        self.riderID = riderID
        self.filter = filter
        self.position = position
        self.fetchLimit = fetchLimit
    }
}

/// What makes two requests for the same idempotency key "the same request".
public struct IdempotencyRequest: Hashable, Sendable {
    /// Who sent the key: keys of different callers never collide.
    public let scope: String
    public let key: String
    /// A canonical form of the request (see `NewTrip.fingerprint`), compared to detect a reused key.
    public let fingerprint: String

    public init(scope: String, key: String, fingerprint: String) {
        self.scope = scope
        self.key = key
        self.fingerprint = fingerprint
    }
}

/// The outcome of recording a trip.
public struct RecordedTrip: Hashable, Sendable {
    public let trip: Trip
    /// True when the idempotency key had already stored this trip and nothing new was written.
    public let replayed: Bool

    public init(trip: Trip, replayed: Bool) {
        self.trip = trip
        self.replayed = replayed
    }
}
