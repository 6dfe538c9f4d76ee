/// Per-period aggregates of the trips matching an analyst's filter.
public struct GetTripStats<Repository: AnalystTripRepository>: Sendable {
    private let repository: Repository
    private let limits: AnalystQueryLimits

    public init(repository: Repository, limits: AnalystQueryLimits) {
        self.repository = repository
        self.limits = limits
    }

    /// Buckets oldest first, only for periods with trips. Throws `ValidationError` on `to` when the window is
    /// wider than the limits allow.
    public func execute(_ query: TripStatsQuery, grant: AnalystGrant) async throws -> [TripStatsBucket] {
        try limits.check(query.filter)
        return try await repository.stats(matching: query)
    }
}
