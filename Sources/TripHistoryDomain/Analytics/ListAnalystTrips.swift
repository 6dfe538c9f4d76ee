/// Trips of all riders matching an analyst's filter, newest first, one keyset page at a time.
public struct ListAnalystTrips<Repository: AnalystTripRepository>: Sendable {
    private let repository: Repository
    private let limits: AnalystQueryLimits

    public init(repository: Repository, limits: AnalystQueryLimits) {
        self.repository = repository
        self.limits = limits
    }

    /// The page that starts at `position` (the first page when nil). Throws `ValidationError` on `to` when
    /// the window is wider than the limits allow. With `count`, the page also says how many trips match the
    /// filter.
    public func execute(
        filter: AnalystTripFilter, limit: AnalystPageLimit, position: PagePosition?, count: TripCountMode? = nil,
        grant: AnalystGrant
    ) async throws -> TripPage {
        try limits.check(filter)
        let query = AnalystTripQuery(filter: filter, position: position, fetchLimit: limit.value + 1)
        let rows = try await repository.trips(matching: query)
        let page = KeysetPage.assemble(rows: rows, limit: limit.value, position: position)
        guard let count else { return page }
        return page.counted(try await repository.count(matching: filter, mode: count))
    }
}
