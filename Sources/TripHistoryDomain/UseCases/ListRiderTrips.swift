/// A rider's trips, newest first, one keyset page at a time.
public struct ListRiderTrips<Repository: TripRepository>: Sendable {
    private let repository: Repository

    public init(repository: Repository) {
        self.repository = repository
    }

    /// The page of the granted rider's trips that starts at `position` (the first page when nil), with how many
    /// trips match the filter when `count` asks for it.
    public func execute(
        _ grant: RiderReadGrant, filter: TripFilter, limit: PageLimit, position: PagePosition?,
        count: TripCountMode? = nil
    ) async throws -> TripPage {
        let riderID = grant.riderID
        let query = TripPageQuery(riderID: riderID, filter: filter, position: position, fetchLimit: limit.value + 1)
        let rows = try await repository.trips(matching: query)
        let page = KeysetPage.assemble(rows: rows, limit: limit.value, position: position)
        guard let count else { return page }
        return page.counted(try await repository.count(riderID: riderID, filter: filter, mode: count))
    }
}
