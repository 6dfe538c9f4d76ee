/// Every trip matching an analyst's filter, newest first, read in bounded keyset batches so that an export of
/// any size holds one batch in memory at a time.
public struct ExportAnalystTrips<Repository: AnalystTripRepository>: Sendable {
    /// Rows per batch: large enough that round trips are few, small enough that each query is short and a
    /// batch stays a few megabytes.
    public static var defaultBatchSize: Int { 2000 }

    private let repository: Repository
    private let limits: AnalystQueryLimits
    private let batchSize: Int

    public init(repository: Repository, limits: AnalystQueryLimits, batchSize: Int = Self.defaultBatchSize) {
        self.repository = repository
        self.limits = limits
        self.batchSize = max(batchSize, 1)
    }

    /// The batches of the export, starting strictly older than `after` (from the newest trip when nil).
    /// Checks the filter here, before anything is read: `ValidationError` on `to` for a window wider than the
    /// limits allow. With `includesLedger`, each trip comes with its fare breakdown and adjustments.
    public func execute(
        filter: AnalystTripFilter, after: TripKey?, grant: AnalystGrant, includesLedger: Bool = false
    ) throws -> TripBatches {
        try limits.check(filter)
        return TripBatches(after: after, batchSize: batchSize) { [repository] after, limit in
            let position = after.map { PagePosition(key: $0, direction: .older) }
            return try await repository.trips(
                matching: AnalystTripQuery(
                    filter: filter, position: position, fetchLimit: limit, includesLedger: includesLedger))
        }
    }
}
