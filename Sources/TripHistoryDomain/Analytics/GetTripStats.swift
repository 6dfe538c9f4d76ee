/// Per-period aggregates of the trips matching an analyst's filter.
public struct GetTripStats<Repository: AnalystTripRepository>: Sendable {
    private let repository: Repository
    private let limits: AnalystQueryLimits

    public init(repository: Repository, limits: AnalystQueryLimits) {
        self.repository = repository
        self.limits = limits
    }

    /// Buckets oldest first, only for periods with trips; with a dimension, each period's buckets by value.
    /// Throws `ValidationError` on `to` when the window is wider than the limits allow, and on `by` when the
    /// dimension splits the window into more than `TripStatsQuery.maximumBuckets` buckets.
    public func execute(_ query: TripStatsQuery, grant: AnalystGrant) async throws -> [TripStatsBucket] {
        try limits.check(query.filter)
        let buckets = try await repository.stats(matching: query)
        if let dimension = query.dimension, buckets.count > TripStatsQuery.maximumBuckets {
            throw ValidationError(
                field: "by",
                reason: "splits the window into more than \(TripStatsQuery.maximumBuckets) \(dimension.rawValue) "
                    + "buckets; narrow from and to, choose a longer group_by, or filter by city or product"
            )
        }
        return buckets
    }
}
