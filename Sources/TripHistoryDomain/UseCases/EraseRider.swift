/// Erases every trip of a rider with everything stored about them (receipts, ledger, idempotency keys), on
/// the privacy role's request. Repeating it erases whatever was recorded since, usually nothing; a rider
/// never seen is erased all the same, so the answer tells nobody who exists.
public struct EraseRider<Repository: TripRepository>: Sendable {
    private let repository: Repository

    public init(repository: Repository) {
        self.repository = repository
    }

    /// The audit record names the granted subject as who asked.
    public func execute(riderID: RiderID, grant: ErasureGrant) async throws -> RiderErasure {
        try await repository.erase(riderID: riderID, requestedBy: grant.subject)
    }
}
