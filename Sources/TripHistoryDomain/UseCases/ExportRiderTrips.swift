/// Every trip of one rider, newest first, with receipts and adjustments, in bounded keyset batches: the
/// rider's own copy of their data (GDPR Article 20), or an analyst's of any rider.
public struct ExportRiderTrips<Repository: TripRepository>: Sendable {
    /// Rows per batch: each row carries its receipt and ledger, so batches are smaller than the analyst
    /// export's.
    public static var defaultBatchSize: Int { 500 }

    private let repository: Repository
    private let batchSize: Int

    public init(repository: Repository, batchSize: Int = Self.defaultBatchSize) {
        self.repository = repository
        self.batchSize = max(batchSize, 1)
    }

    /// The batches of the granted rider's export, starting strictly older than `after`.
    public func execute(_ grant: RiderReadGrant, after: TripKey?) -> TripBatches {
        let riderID = grant.riderID
        return TripBatches(after: after, batchSize: batchSize) { [repository] after, limit in
            try await repository.exportBatch(riderID: riderID, after: after, limit: limit)
        }
    }
}
