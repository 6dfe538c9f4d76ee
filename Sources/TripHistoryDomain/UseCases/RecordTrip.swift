public import Foundation

/// Stores a finished trip reported by a backend service, at most once per idempotency key. A trip requested
/// outside the horizon around now is refused, and so, with a retention, is one requested before its cutoff: it
/// would be removed at once.
public struct RecordTrip<Repository: TripRepository>: Sendable {
    private let repository: Repository
    private let retention: TripRetention?
    private let horizon: RecordingHorizon
    private let now: @Sendable () -> Date

    public init(
        repository: Repository, retention: TripRetention? = nil, horizon: RecordingHorizon = .standard,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.repository = repository
        self.retention = retention
        self.horizon = horizon
        self.now = now
    }

    /// Longest accepted idempotency key, in UTF-8 bytes.
    public static var maximumIdempotencyKeyBytes: Int { IdempotencyRequest.maximumKeyBytes }

    /// Records `trip`. With an idempotency key, a repeat of the same request returns the first result with
    /// `replayed` set; another request under the same key fails with `idempotencyKeyReused`.
    /// Keys are scoped to the granted service.
    public func execute(_ trip: NewTrip, idempotencyKey: String?, grant: RecordGrant) async throws -> RecordedTrip {
        let now = now()
        try horizon.check(requestedAt: trip.details.requestedAt, now: now)
        try retention?.check(requestedAt: trip.details.requestedAt, now: now)
        let idempotency = try idempotencyKey.map { key throws(ValidationError) in
            try IdempotencyRequest.checked(key: key, scope: grant.subject, fingerprint: trip.fingerprint)
        }
        return try await repository.record(trip, idempotency: idempotency)
    }
}
