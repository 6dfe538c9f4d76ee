/// The failures a use case reports. Adapters map each to one HTTP status; none carries internals.
public enum TripHistoryError: Error, Hashable, Sendable {
    /// The trip or rider does not exist, or the caller may not see it: the two are indistinguishable on purpose.
    case notFound
    /// The caller is known but its role may not do this.
    case forbidden
    /// An idempotency key came back with a different request body.
    case idempotencyKeyReused
    /// The caller asked to change a version of the resource that is no longer current (`If-Match`).
    case preconditionFailed
    /// A request with the same idempotency key is being processed right now.
    case conflict
    /// The trip was requested before its rider's data was erased: it belongs to the erased history.
    case riderErased
    /// A changes feed was asked for the changes after a position behind its purge: some of them are no longer
    /// kept, so the reader must reload rather than be handed a page with a hole.
    case changesPurged
    /// The analysts' feed was asked for the changes after a position read on another topology (one PostgreSQL
    /// against the sharded one, or a partition since moved to another server): its transaction ids mean
    /// nothing there, so the reader must reload rather than skip.
    case feedTopologyChanged
    /// The store cannot answer now (down, overloaded, timed out); the request may be retried.
    case unavailable(retryAfterSeconds: Int)
}
