/// Stores a finished trip reported by a backend service, at most once per idempotency key.
public struct RecordTrip<Repository: TripRepository>: Sendable {
    private let repository: Repository

    public init(repository: Repository) {
        self.repository = repository
    }

    /// Longest accepted idempotency key, in UTF-8 bytes.
    public static var maximumIdempotencyKeyBytes: Int { IdempotencyRequest.maximumKeyBytes }

    /// Records `trip`. With an idempotency key, a repeat of the same request returns the first result with
    /// `replayed` set; another request under the same key fails with `idempotencyKeyReused`.
    /// Keys are scoped to the granted service.
    public func execute(_ trip: NewTrip, idempotencyKey: String?, grant: RecordGrant) async throws -> RecordedTrip {
        let idempotency = try idempotencyKey.map { key throws(ValidationError) in
            try IdempotencyRequest.checked(key: key, scope: grant.subject, fingerprint: trip.fingerprint)
        }
        return try await repository.record(trip, idempotency: idempotency)
    }
}
