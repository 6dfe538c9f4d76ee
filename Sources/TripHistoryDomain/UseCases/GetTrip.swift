/// One trip of a rider, for the detail screen.
public struct GetTrip<Repository: TripRepository>: Sendable {
    private let repository: Repository

    public init(repository: Repository) {
        self.repository = repository
    }

    /// Throws `TripHistoryError.notFound` when the trip does not exist, belongs to another rider, or the
    /// caller may not read this rider: all three look the same from outside.
    public func execute(riderID: RiderID, tripID: TripID, caller: Caller) async throws -> Trip {
        try AccessPolicy.checkCanRead(riderID: riderID, caller: caller)
        guard let trip = try await repository.trip(id: tripID, riderID: riderID) else {
            throw TripHistoryError.notFound
        }
        return trip
    }
}
