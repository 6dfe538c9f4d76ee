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
}
