/// Trips of all riders matching an analyst's filter, newest first, one keyset page at a time.
public struct ListAnalystTrips<Repository: AnalystTripRepository>: Sendable {
    private let repository: Repository
    private let limits: AnalystQueryLimits

    public init(repository: Repository, limits: AnalystQueryLimits) {
        self.repository = repository
        self.limits = limits
    }

    /// The page that starts at `position` (the first page when nil). Throws `TripHistoryError.forbidden`
    /// for riders and services, and `ValidationError` on `to` when the window is wider than the limits allow.
    public func execute(
        filter: AnalystTripFilter, limit: AnalystPageLimit, position: PagePosition?, caller: Caller
    ) async throws -> TripPage {
        try AccessPolicy.checkIsAnalyst(caller: caller)
        try limits.check(filter)
        let query = AnalystTripQuery(filter: filter, position: position, fetchLimit: limit.value + 1)
        let rows = try await repository.trips(matching: query)
        return KeysetPage.assemble(rows: rows, limit: limit.value, position: position)
    }
}
