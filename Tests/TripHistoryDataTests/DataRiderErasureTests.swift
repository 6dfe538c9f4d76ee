import Foundation
import Testing
import TripHistoryDataTestSupport
import TripHistoryDomain

@testable import TripHistoryData

/// Erasing a rider on PostgreSQL: every copy in the tables goes in one commit, the feed reports each trip as
/// erased, an audit record stays, and writes racing with the erasure never survive it.
@Suite struct DataRiderErasureTests {
    private static let plate = "ER-4SE-ME"

    private func trip(_ rider: RiderID, at micros: Int64, address: String) throws -> NewTrip {
        try dataTestTrip(
            rider: rider, requestedAtMicros: micros, address: address,
            receipt: TripReceipt(
                breakdown: [FareLine(kind: .base, amountMinor: 1234)],
                payment: Payment(method: .card, brand: "visa", last4: "4242"),
                driver: Driver(
                    firstName: "Zoë", vehicle: Vehicle(make: "Renault", model: "Zoe", color: "blue", plate: Self.plate)),
                route: try EncodedRoute.validated("_p~iF~ps|U_ulLnnqC_mqNvxq`@")))
    }

    /// Rows of every table of the schema whose text form contains `needle`.
    private func rowsMentioning(_ needle: String, pool: PostgresConnectionPool) async throws -> [String: Int64] {
        try await pool.withConnection { connection in
            let tables = try connection.query(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename")
            var found: [String: Int64] = [:]
            for index in 0..<tables.count {
                let table = try tables.string(index, 0) ?? ""
                let rows = try connection.query(
                    "SELECT count(*) FROM \(unsafeSQL: table) t WHERE strpos(t::text, \(needle)) > 0")
                if let count = try rows.int64(0, 0), count > 0 { found[table] = count }
            }
            return found
        }
    }

    /// On the default table and on the yearly partitions a retention needs (the trips straddle a new year).
    @Test(arguments: [false, true])
    func anErasureRemovesEveryCopyReportsEachTripAndKeepsAnAuditRecord(partitioned: Bool) async throws {
        try await DataTestDatabase.withMigratedFreshSchema { pool in
            if partitioned { _ = try await TripTablePartitioner(pool: pool).partition() }
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let other = DataTestDatabase.randomRiderID()
            let address = "erase-me-\(UUID().uuidString)"
            // Keys of their own: a key's lock is an advisory lock, shared by the schemas of the two cases.
            let idempotency = IdempotencyRequest(scope: "ingest", key: "k1-\(partitioned)", fingerprint: "f1")
            var written: [Trip] = []
            for index in 0..<3 {
                // 2025-12-31T23:59:59Z, then the first two seconds of 2026.
                let new = try trip(rider, at: 1_767_225_599_000_000 + Int64(index) * 1_000_000, address: address)
                written.append(try await repository.record(new, idempotency: index == 0 ? idempotency : nil).trip)
            }
            let recorded = written
            _ = try await repository.adjust(
                try NewAdjustment.requested(kind: .tip, amountMinor: 200, reason: "thanks"), tripID: recorded[1].id,
                riderID: rider, expectedVersion: nil,
                idempotency: IdempotencyRequest(scope: "ingest", key: "k2-\(partitioned)", fingerprint: "f2")
            ) { _ in }
            let kept = try await repository.record(
                try trip(other, at: 1_767_225_600_000_000, address: "someone else"), idempotency: nil
            ).trip
            let before = try await repository.currentChangePosition(riderID: rider)
            #expect(try await rowsMentioning(address, pool: pool)["trips"] == 3)

            let erasure = try await repository.erase(riderID: rider, requestedBy: "privacy-desk")
            #expect(erasure.trips == 3)
            #expect(erasure.adjustments == 1)
            #expect(erasure.requestedBy == "privacy-desk")

            // Nothing personal survives in any table: addresses, the vehicle, the route, the keys' trips.
            #expect(try await rowsMentioning(address, pool: pool).isEmpty)
            #expect(try await rowsMentioning(Self.plate, pool: pool).keys.sorted() == ["trip_receipts"])
            let leftovers = try await pool.withConnection { connection in
                let ids = recorded.map { String($0.id.rawValue) }.joined(separator: ",")
                return try connection.query(
                    """
                    SELECT (SELECT count(*) FROM trips WHERE rider_id = \(rider.rawValue))
                        + (SELECT count(*) FROM trip_receipts WHERE trip_id IN (\(unsafeSQL: ids)))
                        + (SELECT count(*) FROM trip_adjustments WHERE trip_id IN (\(unsafeSQL: ids)))
                        + (SELECT count(*) FROM idempotency_keys WHERE trip_id IN (\(unsafeSQL: ids)))
                    """
                ).int64(0, 0)
            }
            #expect(leftovers == 0)
            for trip in recorded { #expect(try await repository.trip(id: trip.id, riderID: rider) == nil) }
            let page = try await repository.trips(
                matching: TripPageQuery(riderID: rider, filter: .all, position: nil, fetchLimit: 10))
            #expect(page.isEmpty)
            // The other rider keeps everything.
            let keptDetail = try await repository.trip(id: kept.id, riderID: other)
            #expect(keptDetail?.receipt.driver?.vehicle?.plate == Self.plate)

            // A feed token from before reads one erased entry per trip; from the start, the upserts are gone.
            let changes = try await repository.changes(riderID: rider, after: before, limit: 10)
            #expect(changes.changes == recorded.map { TripChange.erased($0.id) })
            let all = try await repository.changes(riderID: rider, after: .start, limit: 50)
            #expect(all.changes == recorded.map { TripChange.erased($0.id) })

            // An idempotency key of the erased history does not replay: the trip it names is gone and, being
            // requested before the erasure, cannot be recorded again.
            await #expect(throws: TripHistoryError.riderErased) {
                try await repository.record(
                    try trip(rider, at: 1_767_225_600_000_000, address: address), idempotency: idempotency)
            }

            // Repeating finds nothing; a rider never seen is erased the same way; both are audited.
            let again = try await repository.erase(riderID: rider, requestedBy: "privacy-desk")
            #expect(again.trips == 0 && again.adjustments == 0)
            let stranger = DataTestDatabase.randomRiderID()
            #expect(try await repository.erase(riderID: stranger, requestedBy: "desk-2").trips == 0)
            let log = RiderErasureLog(pool: pool)
            let records = try await log.recent(riderID: rider, limit: 10)
            #expect(records.map(\.trips) == [0, 3])
            #expect(records.map(\.adjustments) == [0, 1])
            #expect(records.last?.erasedAt == erasure.erasedAt)
            #expect(try await log.recent(limit: 10).map(\.riderID) == [stranger, rider, rider])
            #expect(try await repository.changes(riderID: stranger, after: .start, limit: 10).changes.isEmpty)
        }
    }

    @Test func aTripRequestedAfterTheErasureIsRecordedAndOneRequestedBeforeIsRefused() async throws {
        try await DataTestDatabase.withPool { pool in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let erasure = try await repository.erase(riderID: rider, requestedBy: "privacy-desk")
            let earlier = Timestamp.micros(erasure.erasedAt) - 1
            await #expect(throws: TripHistoryError.riderErased) {
                try await repository.record(try trip(rider, at: earlier, address: "x"), idempotency: nil)
            }
            let later = try await repository.record(
                try trip(rider, at: Timestamp.micros(erasure.erasedAt) + 1, address: "y"), idempotency: nil)
            #expect(try await repository.trip(id: later.trip.id, riderID: rider) != nil)
        }
    }

    /// Trips and adjustments of the rider written while the erasure runs: each either fails (refused, or the
    /// trip is gone) or is erased with the rest; none is left, and no deadlock or other failure occurs.
    @Test func writesRacingTheErasureNeverSurviveIt() async throws {
        try await DataTestDatabase.withPool(size: 12) { pool in
            let repository = PostgresTripRepository(pool: pool)
            for round in 0..<3 {
                let rider = DataTestDatabase.randomRiderID()
                let base: Int64 = 1_767_225_600_000_000
                let first = try await repository.record(
                    try trip(rider, at: base, address: "r\(round)"), idempotency: nil)
                let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
                    for index in 0..<8 {
                        group.addTask {
                            // Spread over the erasure's moment: some before it, some during, some after.
                            try await Task.sleep(for: .milliseconds(index * 3))
                            do {
                                _ = try await repository.record(
                                    try trip(rider, at: base + Int64(index + 1) * 1_000_000, address: "r"),
                                    idempotency: nil)
                                return "recorded"
                            } catch TripHistoryError.riderErased {
                                return "refused"
                            }
                        }
                        group.addTask {
                            do {
                                _ = try await repository.adjust(
                                    try NewAdjustment.requested(kind: .tip, amountMinor: 10, reason: "t"),
                                    tripID: first.trip.id, riderID: rider, expectedVersion: nil, idempotency: nil
                                ) { _ in }
                                return "adjusted"
                            } catch TripHistoryError.notFound {
                                return "gone"
                            }
                        }
                    }
                    group.addTask {
                        try await Task.sleep(for: .milliseconds(6 + round * 5))
                        _ = try await repository.erase(riderID: rider, requestedBy: "privacy-desk")
                        return "erased"
                    }
                    return try await group.reduce(into: [String]()) { $0.append($1) }
                }
                #expect(outcomes.count == 17)
                #expect(outcomes.filter { $0 == "erased" }.count == 1)
                let left = try await repository.trips(
                    matching: TripPageQuery(riderID: rider, filter: .all, position: nil, fetchLimit: 50))
                #expect(left.isEmpty, "round \(round): \(outcomes)")
                // What the erasure removed and the refusals account for every write.
                let record = try #require(try await RiderErasureLog(pool: pool).recent(riderID: rider, limit: 1).first)
                #expect(record.trips == 1 + outcomes.filter { $0 == "recorded" }.count)
                #expect(record.adjustments == outcomes.filter { $0 == "adjusted" }.count)
            }
        }
    }
}
