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

    /// The batches of the rider's export, starting strictly older than `after`. Checks the caller before
    /// anything is read, as a read of the rider's list does (another rider gets `notFound`).
    public func execute(riderID: RiderID, after: TripKey?, caller: Caller) throws -> RiderTripBatches<Repository> {
        try AccessPolicy.checkCanRead(riderID: riderID, caller: caller)
        return RiderTripBatches(repository: repository, riderID: riderID, after: after, batchSize: batchSize)
    }
}

/// The batches of one rider's export; each `next()` runs one short query for the trips after the last one.
public struct RiderTripBatches<Repository: TripRepository>: TripBatches {
    private let repository: Repository
    private let riderID: RiderID
    private let batchSize: Int
    /// The key of the last trip handed out; the next batch starts strictly older.
    public private(set) var last: TripKey?
    public private(set) var isFinished = false

    init(repository: Repository, riderID: RiderID, after: TripKey?, batchSize: Int) {
        self.repository = repository
        self.riderID = riderID
        self.batchSize = batchSize
        self.last = after
    }

    public mutating func next() async throws -> [Trip]? {
        guard !isFinished else { return nil }
        let rows = try await repository.exportBatch(riderID: riderID, after: last, limit: batchSize)
        if rows.count < batchSize { isFinished = true }
        guard let tail = rows.last else { return nil }
        last = TripKey(tail)
        return rows
    }
}
