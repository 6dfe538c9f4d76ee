/// The cross-rider reads analysts run. Kept apart from `TripRepository` so the rider-facing store and its
/// fakes need not grow with analytics. Implementations read a consistent snapshot per call.
public protocol AnalystTripRepository: Sendable {
    /// Up to `query.fetchLimit` trips of all riders matching the filter, strictly beyond `query.position` in
    /// its direction: newest first by (requested_at, id) for `.older` and first reads, oldest first for `.newer`.
    func trips(matching query: AnalystTripQuery) async throws -> [Trip]

    /// How many trips of all riders match `filter`, counted as `mode` says (see `TripCount`).
    func count(matching filter: AnalystTripFilter, mode: TripCountMode) async throws -> TripCount

    /// One bucket per period of `query.granularity` in `query.timeZone` that holds at least one matching trip,
    /// oldest first. With `query.dimension`, one bucket per period and value of that field instead, ordered by
    /// period then value, and at most `TripStatsQuery.maximumBuckets + 1` of them, so a caller sees that the
    /// answer went past the cap without reading every bucket.
    func stats(matching query: TripStatsQuery) async throws -> [TripStatsBucket]

    /// Up to `limit` changes of every rider after `position`, oldest first, each upsert with its trip as it
    /// stands now (see `AnalystChangePosition` for why none is ever skipped or repeated). A position of another
    /// topology than the store's throws `TripHistoryError.feedTopologyChanged`.
    func changes(after position: AnalystFeedPosition, limit: Int) async throws -> AnalystChangePage

    /// The position that stands for now: reading after it returns only changes not yet handed out.
    func currentChangePosition() async throws -> AnalystFeedPosition
}

/// One keyset read of the analyst list or of an export batch.
public struct AnalystTripQuery: Hashable, Sendable {
    public let filter: AnalystTripFilter
    public let position: PagePosition?
    /// Rows to return at most.
    public let fetchLimit: Int
    /// Whether each trip comes with its money's history: the receipt's fare breakdown alone (no payment, driver
    /// or route) and the adjustments ledger (`Trip.adjustments` set, empty when none); without it neither is read.
    public let includesLedger: Bool

    public init(filter: AnalystTripFilter, position: PagePosition?, fetchLimit: Int, includesLedger: Bool = false) {
        self.filter = filter
        self.position = position
        self.fetchLimit = fetchLimit
        self.includesLedger = includesLedger
    }
}

/// One aggregate read: the filter, the calendar periods to group by, and optionally a field to split them by.
public struct TripStatsQuery: Hashable, Sendable {
    /// The most buckets one answer split by a dimension may hold: a dimension multiplies the periods, which
    /// the window's limit bounds, by the field's distinct values. Answers without a dimension are not capped.
    public static let maximumBuckets = 10_000

    public let filter: AnalystTripFilter
    public let granularity: StatsGranularity
    /// The IANA zone whose local calendar cuts the periods.
    public let timeZone: String
    /// The field each period is split by, nil for one bucket per period.
    public let dimension: StatsDimension?

    public init(
        filter: AnalystTripFilter, granularity: StatsGranularity, timeZone: String, dimension: StatsDimension? = nil
    ) {
        self.filter = filter
        self.granularity = granularity
        self.timeZone = timeZone
        self.dimension = dimension
    }
}
