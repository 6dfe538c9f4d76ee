import Foundation
import Testing
import TripHistoryDomain
import TripHistoryFakes

/// An erasure removes the rider's trips and names who asked in its record (who may ask: `AccessPolicyTests`).
@Suite struct EraseRiderTests {
    private let rider = RiderID(Int64(7))!

    @Test func theGrantedSubjectIsNamedInTheRecord() async throws {
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 7, count: 3))
        let erase = EraseRider(repository: repository)
        let record = try await erase.execute(
            riderID: rider, grant: try AccessPolicy.erase(caller: .privacy(subject: "desk")))
        #expect(record.trips == 3 && record.requestedBy == "desk" && record.riderID == rider)
        #expect(repository.allTrips.isEmpty)
    }
}
