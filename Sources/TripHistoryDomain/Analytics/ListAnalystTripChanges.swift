/// The analysts' feed of every rider's changes, for a warehouse that loads what was recorded, adjusted or erased
/// since its last run.
public struct ListAnalystTripChanges<Repository: AnalystTripRepository>: Sendable {
    private let repository: Repository

    public init(repository: Repository) {
        self.repository = repository
    }

    /// Changes after `position`, or, without one, an empty page whose `next` stands for now.
    public func execute(
        after position: AnalystFeedPosition?, limit: Int, grant: AnalystGrant
    ) async throws -> AnalystChangePage {
        guard let position else {
            return AnalystChangePage(changes: [], next: try await repository.currentChangePosition(), hasMore: false)
        }
        return try await repository.changes(after: position, limit: limit)
    }
}
