import Testing
import TripHistoryDomain
import TripHistoryFakes

@Suite struct RecordTripTests {
    let service = Caller.service(subject: "ingest")

    @Test func onlyServicesRecord() async throws {
        let useCase = RecordTrip(repository: InMemoryTripRepository())
        await #expect(throws: TripHistoryError.forbidden) {
            _ = try await useCase.execute(TripFixtures.newTrip(), idempotencyKey: nil, caller: .rider(RiderID(1)!))
        }
        await #expect(throws: TripHistoryError.forbidden) {
            _ = try await useCase.execute(TripFixtures.newTrip(), idempotencyKey: nil, caller: .analyst(subject: "a"))
        }
        let recorded = try await useCase.execute(TripFixtures.newTrip(), idempotencyKey: nil, caller: service)
        #expect(!recorded.replayed)
    }

    @Test func idempotencyKeyReplaysOrRejects() async throws {
        let repository = InMemoryTripRepository()
        let useCase = RecordTrip(repository: repository)
        let first = try await useCase.execute(TripFixtures.newTrip(), idempotencyKey: "k-1", caller: service)
        let again = try await useCase.execute(TripFixtures.newTrip(), idempotencyKey: "k-1", caller: service)
        #expect(again.replayed && again.trip == first.trip)
        await #expect(throws: TripHistoryError.idempotencyKeyReused) {
            _ = try await useCase.execute(
                TripFixtures.newTrip(distanceMeters: 1), idempotencyKey: "k-1", caller: service)
        }
        #expect(repository.allTrips.count == 1)
    }

    @Test(arguments: ["", String(repeating: "k", count: 256), "has space", "naïve"])
    func malformedIdempotencyKeysAreRejected(key: String) async throws {
        let useCase = RecordTrip(repository: InMemoryTripRepository())
        await #expect(throws: ValidationError.self) {
            _ = try await useCase.execute(TripFixtures.newTrip(), idempotencyKey: key, caller: service)
        }
    }
}
