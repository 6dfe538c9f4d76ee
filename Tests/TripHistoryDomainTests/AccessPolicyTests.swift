import Testing
import TripHistoryDomain

/// Who may do what: each rule of `AccessPolicy`, and what its grant carries to the use cases.
@Suite struct AccessPolicyTests {
    private let rider = RiderID(Int64(7))!
    private let others: [Caller] = [
        .rider(RiderID(Int64(8))!), .analyst(subject: "a"), .service(subject: "s"), .privacy(subject: "desk"),
    ]

    @Test func aRiderReadsOwnTripsAndAnotherRiderSeesNotFound() throws {
        let grant = try AccessPolicy.read(riderID: rider, caller: .rider(rider))
        #expect(grant.riderID == rider && grant.caller == .rider(rider))
        #expect(throws: TripHistoryError.notFound) {
            try AccessPolicy.read(riderID: rider, caller: .rider(RiderID(Int64(8))!))
        }
    }

    @Test func analystsReadAnyRiderAndServicesAndThePrivacyRoleReadNone() throws {
        let grant = try AccessPolicy.read(riderID: rider, caller: .analyst(subject: "a"))
        #expect(grant.riderID == rider && grant.caller == .analyst(subject: "a"))
        for caller in [Caller.service(subject: "s"), .privacy(subject: "desk")] {
            #expect(throws: TripHistoryError.forbidden) { try AccessPolicy.read(riderID: rider, caller: caller) }
        }
    }

    @Test func oneTripIsReadByItsRiderAnalystsAndServicesButNotThePrivacyRole() throws {
        for caller in [Caller.rider(rider), .analyst(subject: "a"), .service(subject: "s")] {
            #expect(try AccessPolicy.readTrip(riderID: rider, caller: caller).caller == caller)
        }
        #expect(throws: TripHistoryError.notFound) {
            try AccessPolicy.readTrip(riderID: rider, caller: .rider(RiderID(Int64(8))!))
        }
        #expect(throws: TripHistoryError.forbidden) {
            try AccessPolicy.readTrip(riderID: rider, caller: .privacy(subject: "desk"))
        }
    }

    @Test func onlyServicesRecordUnderTheirOwnSubject() throws {
        #expect(try AccessPolicy.record(caller: .service(subject: "ingest")).subject == "ingest")
        for caller in [Caller.rider(rider)] + others where caller != .service(subject: "s") {
            #expect(throws: TripHistoryError.forbidden) { try AccessPolicy.record(caller: caller) }
        }
    }

    @Test func onlyAnalystsReadAcrossRiders() throws {
        #expect(try AccessPolicy.analyze(caller: .analyst(subject: "bi")).caller == .analyst(subject: "bi"))
        for caller in [Caller.rider(rider)] + others where caller != .analyst(subject: "a") {
            #expect(throws: TripHistoryError.forbidden) { try AccessPolicy.analyze(caller: caller) }
        }
    }

    @Test func onlyThePrivacyRoleErases() throws {
        #expect(try AccessPolicy.erase(caller: .privacy(subject: "desk")).subject == "desk")
        for caller in [Caller.rider(rider)] + others where caller != .privacy(subject: "desk") {
            #expect(throws: TripHistoryError.forbidden) { try AccessPolicy.erase(caller: caller) }
        }
    }
}
