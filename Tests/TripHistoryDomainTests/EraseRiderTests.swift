import Foundation
import Testing
import TripHistoryDomain
import TripHistoryFakes

/// Who may erase, and what the privacy role may not do.
@Suite struct EraseRiderTests {
    private let rider = RiderID(Int64(7))!

    @Test func onlyThePrivacyRoleErasesAndItIsNamedInTheRecord() async throws {
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 7, count: 3))
        let erase = EraseRider(repository: repository)
        for caller in [Caller.rider(rider), .analyst(subject: "a"), .service(subject: "s")] {
            await #expect(throws: TripHistoryError.forbidden) {
                try await erase.execute(riderID: rider, caller: caller)
            }
        }
        #expect(repository.allTrips.count == 3)
        let record = try await erase.execute(riderID: rider, caller: .privacy(subject: "desk"))
        #expect(record.trips == 3 && record.requestedBy == "desk" && record.riderID == rider)
        #expect(repository.allTrips.isEmpty)
    }

    @Test func thePrivacyRoleReadsAndRecordsNothing() async throws {
        let privacy = Caller.privacy(subject: "desk")
        #expect(throws: TripHistoryError.forbidden) { try AccessPolicy.checkCanRead(riderID: rider, caller: privacy) }
        #expect(throws: TripHistoryError.forbidden) { try AccessPolicy.checkCanRecord(caller: privacy) }
        #expect(throws: TripHistoryError.forbidden) { try AccessPolicy.checkIsAnalyst(caller: privacy) }
    }
}
