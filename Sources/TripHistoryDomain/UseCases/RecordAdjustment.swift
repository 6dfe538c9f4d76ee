public import Foundation

/// Appends a tip, refund or fare correction to a trip, on behalf of a backend service, at most once per
/// idempotency key.
public struct RecordAdjustment<Repository: TripRepository>: Sendable {
    private let repository: Repository
    private let policy: AdjustmentPolicy
    private let now: @Sendable () -> Date

    public init(
        repository: Repository, policy: AdjustmentPolicy = AdjustmentPolicy(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.repository = repository
        self.policy = policy
        self.now = now
    }

    /// Records `adjustment` on the rider's trip once its rules hold for the trip as it stands
    /// (`NewAdjustment.check`), and returns the trip updated. Idempotency keys are scoped apart from the
    /// caller's trip keys, so the same key may name one trip and one adjustment.
    public func execute(
        _ adjustment: NewAdjustment, tripID: TripID, riderID: RiderID, expectedVersion: Int?,
        idempotencyKey: String?, grant: RecordGrant
    ) async throws -> RecordedTrip {
        let idempotency = try idempotencyKey.map { key throws(ValidationError) in
            try IdempotencyRequest.checked(
                key: key, scope: "adjustment:" + grant.subject,
                fingerprint: adjustment.fingerprint(riderID: riderID, tripID: tripID))
        }
        let (policy, now) = (self.policy, self.now)
        return try await repository.adjust(
            adjustment, tripID: tripID, riderID: riderID, expectedVersion: expectedVersion,
            idempotency: idempotency
        ) { trip in
            try adjustment.check(against: trip, now: now(), policy: policy)
        }
    }
}
