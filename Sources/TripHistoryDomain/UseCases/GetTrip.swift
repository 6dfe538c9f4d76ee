/// One trip of a rider, for the detail screen.
public struct GetTrip<Repository: TripRepository>: Sendable {
    private let repository: Repository

    public init(repository: Repository) {
        self.repository = repository
    }

    /// Throws `TripHistoryError.notFound` when the trip does not exist or belongs to another rider: both look
    /// the same from outside, as a rider the caller may not read does (`AccessPolicy.read`).
    public func execute(_ grant: RiderReadGrant, tripID: TripID) async throws -> Trip {
        guard let trip = try await repository.trip(id: tripID, riderID: grant.riderID) else {
            throw TripHistoryError.notFound
        }
        return trip
    }
}
