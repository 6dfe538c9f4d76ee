import Foundation
import Testing
import TripHistoryDomain
import TripHistoryFakes

@Suite struct TripRetentionTests {
    private static func instant(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text)!
    }

    @Test(arguments: [
        (24, "2026-11-27T06:00:00Z", "2024-11-01T00:00:00Z"),
        (1, "2026-01-01T00:00:00Z", "2025-12-01T00:00:00Z"),
        (1, "2025-12-31T23:59:59Z", "2025-11-01T00:00:00Z"),
        (13, "2026-03-15T12:00:00Z", "2025-02-01T00:00:00Z"),
        (600, "2026-03-15T12:00:00Z", "1976-03-01T00:00:00Z"),
        (1200, "2026-03-15T12:00:00Z", "1926-03-01T00:00:00Z"),
    ])
    func theCutoffIsTheStartOfTheMonthSoManyMonthsBack(months: Int, now: String, cutoff: String) {
        #expect(TripRetention(months: months).cutoff(at: Self.instant(now)) == Self.instant(cutoff))
    }

    @Test func aTripRequestedBeforeTheCutoffIsRefusedNamingItsField() async throws {
        let repository = InMemoryTripRepository()
        let now = Self.instant("2026-11-27T06:00:00Z")
        let useCase = RecordTrip(repository: repository, retention: TripRetention(months: 2), now: { now })
        let grant = try AccessPolicy.record(caller: .service(subject: "ingest"))
        do {
            _ = try await useCase.execute(
                TripFixtures.newTrip(requestedAt: Self.instant("2026-08-31T23:59:59Z")), idempotencyKey: nil,
                grant: grant)
            Issue.record("a trip older than the retention was recorded")
        } catch let error as ValidationError {
            #expect(error.field == "requested_at")
        }
        let kept = try await useCase.execute(
            TripFixtures.newTrip(requestedAt: Self.instant("2026-09-01T00:00:00Z")), idempotencyKey: nil, grant: grant)
        #expect(repository.allTrips.map(\.id) == [kept.trip.id])
    }
}
