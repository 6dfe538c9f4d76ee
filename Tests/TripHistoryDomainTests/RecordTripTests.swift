import Foundation
import Testing
import TripHistoryDomain
import TripHistoryFakes

@Suite struct RecordTripTests {
    let service = try! AccessPolicy.record(caller: .service(subject: "ingest"))

    @Test func idempotencyKeyReplaysOrRejects() async throws {
        let repository = InMemoryTripRepository()
        let useCase = RecordTrip(repository: repository)
        let first = try await useCase.execute(TripFixtures.newTrip(), idempotencyKey: "k-1", grant: service)
        let again = try await useCase.execute(TripFixtures.newTrip(), idempotencyKey: "k-1", grant: service)
        #expect(again.replayed && again.trip == first.trip)
        await #expect(throws: TripHistoryError.idempotencyKeyReused) {
            _ = try await useCase.execute(
                TripFixtures.newTrip(distanceMeters: 1), idempotencyKey: "k-1", grant: service)
        }
        #expect(repository.allTrips.count == 1)
    }

    @Test(arguments: ["", String(repeating: "k", count: 256), "has space", "naïve"])
    func malformedIdempotencyKeysAreRejected(key: String) async throws {
        let useCase = RecordTrip(repository: InMemoryTripRepository())
        await #expect(throws: ValidationError.self) {
            _ = try await useCase.execute(TripFixtures.newTrip(), idempotencyKey: key, grant: service)
        }
    }

    /// The horizon is checked against the clock the use case is given, before and after now.
    @Test func aTripRequestedBeyondTheHorizonIsRefusedAndOneWithinItRecorded() async throws {
        let now = Date(timeIntervalSince1970: 1_772_400_000)
        let useCase = RecordTrip(
            repository: InMemoryTripRepository(), horizon: RecordingHorizon(years: 2), now: { now })
        let year: TimeInterval = 365.25 * 86_400
        for offset in [-2.01 * year, 2.01 * year] {
            await #expect(throws: ValidationError(field: "requested_at", reason: "must be within 2 years of now")) {
                _ = try await useCase.execute(
                    TripFixtures.newTrip(requestedAt: now.addingTimeInterval(offset)), idempotencyKey: nil,
                    grant: service)
            }
        }
        for offset in [-1.99 * year, 1.99 * year] {
            let recorded = try await useCase.execute(
                TripFixtures.newTrip(requestedAt: now.addingTimeInterval(offset)), idempotencyKey: nil, grant: service)
            #expect(!recorded.replayed)
        }
    }
}
