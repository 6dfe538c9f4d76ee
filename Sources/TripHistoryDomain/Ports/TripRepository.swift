/// The store of trips. Implementations must read a consistent snapshot per call and return trips in the
/// order the query's direction reads them.
public protocol TripRepository: Sendable {
    /// Up to `query.fetchLimit` trips matching the filter, strictly beyond `query.position` in its direction:
    /// newest first for `.older` (and for a first page), oldest first for `.newer`. List rows carry no receipt
    /// and no adjustments.
    func trips(matching query: TripPageQuery) async throws -> [Trip]

    /// The rider's trip with this id, with its receipt and adjustments, or nil when there is none for this
    /// rider.
    func trip(id: TripID, riderID: RiderID) async throws -> Trip?

    /// Stores a new trip, at most once per idempotency key. Throws `TripHistoryError.idempotencyKeyReused`
    /// when the key was used for another body and `.conflict` while the key's first request is still running.
    func record(_ trip: NewTrip, idempotency: IdempotencyRequest?) async throws -> RecordedTrip

    /// Appends `adjustment` to the rider's trip and returns the trip as it then stands, with its receipt and
    /// adjustments. `check` runs with the trip locked, before anything is written, and throws to refuse it;
    /// `expectedVersion`, when given, must be the trip's version (else `.preconditionFailed`). An unknown trip
    /// or another rider's is `.notFound`. Idempotency works as for `record`; a replay returns the trip as it
    /// stands now.
    func adjust(
        _ adjustment: NewAdjustment, tripID: TripID, riderID: RiderID, expectedVersion: Int?,
        idempotency: IdempotencyRequest?, check: @escaping @Sendable (Trip) throws -> Void
    ) async throws -> RecordedTrip

    /// Removes every trip of the rider with its receipt, ledger and idempotency keys, reports each trip as
    /// erased in the rider's changes feed and keeps an audit record, all in one commit; returns once reads
    /// anywhere (other instances, replicas) can no longer return them. A trip requested before the erasure
    /// and recorded concurrently is either removed too or refused with `.riderErased`.
    func erase(riderID: RiderID, requestedBy: String) async throws -> RiderErasure

    /// Up to `limit` of the rider's trips strictly older than `after` (from the newest when nil), newest first,
    /// each with its receipt and adjustments as a detail read returns them: one batch of the rider's export.
    func exportBatch(riderID: RiderID, after: TripKey?, limit: Int) async throws -> [Trip]

    /// How many of the rider's trips match `filter`, counted as `mode` says (see `TripCount`).
    func count(riderID: RiderID, filter: TripFilter, mode: TripCountMode) async throws -> TripCount

    /// The rider's changes strictly after `position` (from the start of the feed when nil), at most `limit`.
    func changes(riderID: RiderID, after position: ChangePosition?, limit: Int) async throws -> ChangePage

    /// The position that stands for "now": the rider's last change, so reading from it returns only later ones.
    func currentChangePosition(riderID: RiderID) async throws -> ChangePosition
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

    /// Longest accepted idempotency key, in UTF-8 bytes.
    public static let maximumKeyBytes = 255

    /// The request for `key` sent by `scope`, once the key is 1 to 255 visible ASCII characters.
    public static func checked(
        key: String, scope: String, fingerprint: String
    ) throws(ValidationError) -> IdempotencyRequest {
        guard !key.isEmpty, key.utf8.count <= maximumKeyBytes,
            key.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x21 && $0.value < 0x7F })
        else {
            throw ValidationError(
                field: "Idempotency-Key", reason: "must be 1 to \(maximumKeyBytes) visible ASCII characters")
        }
        return IdempotencyRequest(scope: scope, key: key, fingerprint: fingerprint)
    }
}

/// The outcome of recording a trip or an adjustment.
public struct RecordedTrip: Hashable, Sendable {
    public let trip: Trip
    /// True when the idempotency key had already stored this write and nothing new was written.
    public let replayed: Bool

    public init(trip: Trip, replayed: Bool) {
        self.trip = trip
        self.replayed = replayed
    }
}
