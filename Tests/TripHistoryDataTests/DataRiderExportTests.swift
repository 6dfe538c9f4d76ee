import Foundation
import Testing
import TripHistoryDataTestSupport
import TripHistoryDomain

@testable import TripHistoryData

/// A rider's export on PostgreSQL: batches in keyset order, each trip as its detail read returns it.
@Suite struct DataRiderExportTests {
    @Test func theBatchesHoldEveryTripOfTheRiderNewestFirstWithReceiptsAndLedgers() async throws {
        try await DataTestDatabase.withPool { pool in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            var ids: [TripID] = []
            // Five trips, two sharing a request time (the id breaks the tie), and another rider's.
            for (index, micros) in [0, 1, 1, 2, 3].map({ 1_767_225_600_000_000 + Int64($0) * 1_000_000 }).enumerated() {
                let trip = try dataTestTrip(rider: rider, requestedAtMicros: micros, address: "a\(index)")
                ids.append(try await repository.record(trip, idempotency: nil).trip.id)
            }
            _ = try await repository.record(
                try dataTestTrip(rider: DataTestDatabase.randomRiderID(), requestedAtMicros: 1_767_225_600_000_000),
                idempotency: nil)
            _ = try await repository.adjust(
                try NewAdjustment.requested(kind: .fareCorrection, amountMinor: -34, reason: "toll"), tripID: ids[2],
                riderID: rider, expectedVersion: nil, idempotency: nil
            ) { _ in }
            var batches = ExportRiderTrips(repository: repository, batchSize: 2)
                .execute(try AccessPolicy.read(riderID: rider, caller: .rider(rider)), after: nil)
            var exported: [[Trip]] = []
            while let batch = try await batches.next() { exported.append(batch) }
            #expect(exported.map(\.count) == [2, 2, 1])
            var details: [Trip] = []
            for id in [ids[4], ids[3], ids[2], ids[1], ids[0]] {
                details.append(try #require(try await repository.trip(id: id, riderID: rider)))
            }
            #expect(exported.flatMap { $0 } == details)
            #expect(exported.flatMap { $0 }[2].adjustments?.map(\.amountMinor) == [-34])
        }
    }
}
