/// A rider's changes feed, for apps that keep an offline copy of their trips.
public struct ListTripChanges<Repository: TripRepository>: Sendable {
    private let repository: Repository

    public init(repository: Repository) {
        self.repository = repository
    }

    /// Changes after `position`, or, without one, an empty page whose `next` stands for now. Readable by
    /// whoever may read the rider's trips.
    public func execute(_ grant: RiderReadGrant, after position: ChangePosition?, limit: Int) async throws -> ChangePage
    {
        let riderID = grant.riderID
        guard let position else {
            let now = try await repository.currentChangePosition(riderID: riderID)
            return ChangePage(changes: [], next: now, hasMore: false)
        }
        return try await repository.changes(riderID: riderID, after: position, limit: limit)
    }
}
