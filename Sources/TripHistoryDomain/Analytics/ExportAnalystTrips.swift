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
    /// Checks the caller and the filter here, before anything is read. Throws `TripHistoryError.forbidden` for
    /// riders and services and `ValidationError` on `to` for a window wider than the limits allow.
    public func execute(
        filter: AnalystTripFilter, after: TripKey?, caller: Caller
    ) throws -> AnalystTripBatches<Repository> {
        try AccessPolicy.checkIsAnalyst(caller: caller)
        try limits.check(filter)
        return AnalystTripBatches(repository: repository, filter: filter, after: after, batchSize: batchSize)
    }
}

/// The batches of one export. Each `next()` runs one short query for the trips after the last one returned,
/// so stopping the iteration (e.g. when the client went away) stops the database work at once.
public struct AnalystTripBatches<Repository: AnalystTripRepository>: TripBatches {
    private let repository: Repository
    private let filter: AnalystTripFilter
    private let batchSize: Int
    /// The key of the last trip handed out; the next batch starts strictly older.
    public private(set) var last: TripKey?
    /// Whether every matching trip was returned, so `next()` reads nothing more and returns nil.
    public private(set) var isFinished = false

    init(repository: Repository, filter: AnalystTripFilter, after: TripKey?, batchSize: Int) {
        self.repository = repository
        self.filter = filter
        self.batchSize = batchSize
        self.last = after
    }

    /// The next non-empty batch, newest first, or nil once every matching trip was returned.
    public mutating func next() async throws -> [Trip]? {
        guard !isFinished else { return nil }
        let position = last.map { PagePosition(key: $0, direction: .older) }
        let rows = try await repository.trips(
            matching: AnalystTripQuery(filter: filter, position: position, fetchLimit: batchSize)
        )
        // A short batch is the last one, which saves the empty query at the end.
        if rows.count < batchSize { isFinished = true }
        guard let tail = rows.last else { return nil }
        last = TripKey(tail)
        return rows
    }
}
