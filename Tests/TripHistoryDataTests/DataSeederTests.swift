import Foundation
import Testing
import TripHistoryData
import TripHistoryDataTestSupport
import TripHistoryDomain

@Suite(.serialized) struct DataSeederTests {
    private static let checksumSQL = """
        SELECT count(*), count(*) FILTER (WHERE status = 'canceled'), count(*) FILTER (WHERE fare_currency = 'JPY'),
            count(DISTINCT (rider_id, requested_at)) < count(*),
            md5(string_agg(t::text, E'\\n' ORDER BY t::text))
        FROM (SELECT rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat,
                pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s,
                fare_amount_minor, fare_currency
              FROM trips WHERE rider_id BETWEEN 1 AND 40) t
        """

    private struct Summary: Equatable, Sendable {
        let rows: Int64?, canceled: Int64?, yen: Int64?, hasTies: Bool?, checksum: String?
    }

    private func summary(_ pool: PostgresConnectionPool) async throws -> Summary {
        try await pool.withConnection { connection in
            let rows = try connection.query(PostgresQuery(stringLiteral: Self.checksumSQL))
            return Summary(
                rows: try rows.int64(0, 0), canceled: try rows.int64(0, 1), yen: try rows.int64(0, 2),
                hasTies: try rows.bool(0, 3), checksum: try rows.string(0, 4))
        }
    }

    @Test func seedingIsDeterministicRealisticAndReplacesRiders() async throws {
        try await DataTestDatabase.withPool { (pool: PostgresConnectionPool) async throws in
            let seeder = TripSeeder(pool: pool, logger: DataTestDatabase.logger)
            let written = try await seeder.seed(riders: 40, tripsPerRider: 100, seed: 42, progress: nil)
            #expect(written == 4000)
            let first = try await summary(pool)
            #expect(first.rows == 4000)
            #expect((120...320).contains(first.canceled ?? 0), "about 5% canceled")
            #expect((first.yen ?? 0) > 0)
            #expect(first.hasTies == true)

            // Every seeded row reads back as a valid domain trip, quoted addresses included.
            let repository = PostgresTripRepository(pool: pool)
            let page = try await repository.trips(
                matching: TripPageQuery(
                    riderID: RiderID(7)!, filter: .all, position: nil, fetchLimit: 100))
            #expect(page.count == 100)
            let quoted = try await pool.withConnection { connection in
                try connection.query(
                    "SELECT count(*) FROM trips WHERE rider_id <= 40 AND pickup_address LIKE '%\"%, %'"
                ).int64(0, 0)
            }
            #expect((quoted ?? 0) > 0)

            // The trips' life after the ride: tips on about a third of completed trips, refunds on about 1%,
            // each in the ledger as in the totals; a receipt per trip with a fare, whose breakdown sums to it,
            // and a route on every completed one that decodes from pickup to dropoff.
            let life = try await pool.withConnection { connection in
                let rows = try connection.query(
                    """
                    SELECT count(*) FILTER (WHERE tips_minor > 0) * 100 / count(*) FILTER (WHERE status = 'completed'),
                        count(*) FILTER (WHERE refunds_minor < 0),
                        count(*) FILTER (WHERE version <> 1 + (tips_minor > 0)::int + (refunds_minor < 0)::int),
                        count(*) FILTER (WHERE (tips_minor, refunds_minor) <> (
                            SELECT coalesce(sum(amount_minor) FILTER (WHERE kind = 'tip'), 0),
                                coalesce(sum(amount_minor) FILTER (WHERE kind = 'refund'), 0)
                            FROM trip_adjustments a WHERE a.trip_id = trips.id)),
                        count(*) FILTER (WHERE fare_amount_minor > 0 AND NOT EXISTS (
                            SELECT 1 FROM trip_receipts r WHERE r.trip_id = trips.id
                              AND (SELECT sum((line ->> 'amount_minor')::bigint)
                                   FROM jsonb_array_elements(r.fare_breakdown) line) = fare_amount_minor)),
                        count(*) FILTER (WHERE updated_at < recorded_at OR recorded_at < started_at)
                    FROM trips WHERE rider_id BETWEEN 1 AND 40
                    """)
                return try (0..<6).map { try rows.int64(0, $0) ?? -1 }
            }
            #expect((25...40).contains(life[0]), "percent of completed trips tipped: \(life[0])")
            #expect((10...90).contains(life[1]), "refunded trips: \(life[1])")
            #expect(life[2...] == [0, 0, 0, 0], "versions, ledgers, receipts and times agree: \(life)")
            let routes = try await pool.withConnection { connection in
                let rows = try connection.query(
                    """
                    SELECT r.route_polyline, t.pickup_lat, t.pickup_lon, t.dropoff_lat, t.dropoff_lon
                    FROM trips t JOIN trip_receipts r ON r.trip_id = t.id
                    WHERE t.rider_id = 7 AND t.status = 'completed' ORDER BY t.id LIMIT 20
                    """)
                return try (0..<rows.count).map { row in
                    (
                        try rows.string(row, 0) ?? "", try rows.double(row, 1) ?? 0, try rows.double(row, 2) ?? 0,
                        try rows.double(row, 3) ?? 0, try rows.double(row, 4) ?? 0
                    )
                }
            }
            #expect(routes.count == 20)
            for (polyline, pickupLat, pickupLon, dropoffLat, dropoffLon) in routes {
                let points = try EncodedRoute.validated(polyline).points
                #expect(points.count == 4)
                #expect(abs(points[0].latitude - pickupLat) < 1e-5 && abs(points[0].longitude - pickupLon) < 1e-5)
                #expect(abs(points[3].latitude - dropoffLat) < 1e-5 && abs(points[3].longitude - dropoffLon) < 1e-5)
            }

            var reported: [Int] = []
            let progress = ProgressLog()
            let again = try await seeder.seed(riders: 40, tripsPerRider: 100, seed: 42) { progress.append($0) }
            reported = progress.values
            #expect(again == 4000)
            #expect(reported.last == 4000)
            #expect(try await summary(pool) == first, "same seed, same rows; old rows replaced")

            _ = try await seeder.seed(riders: 40, tripsPerRider: 100, seed: 43, progress: nil)
            #expect(try await summary(pool).checksum != first.checksum)
        }
    }

    private static let skewedRiders = 500_001...500_400

    private func perRiderCounts(_ pool: PostgresConnectionPool, _ riders: ClosedRange<Int>) async throws -> [Int: Int] {
        try await pool.withConnection { connection in
            let rows = try connection.query(
                "SELECT rider_id, count(*) FROM trips WHERE rider_id BETWEEN \(riders.lowerBound) AND \(riders.upperBound) GROUP BY rider_id"
            )
            var counts: [Int: Int] = [:]
            for row in 0..<rows.count {
                counts[Int(try rows.int64(row, 0) ?? 0)] = Int(try rows.int64(row, 1) ?? 0)
            }
            return counts
        }
    }

    private func checksum(_ pool: PostgresConnectionPool, _ riders: ClosedRange<Int>) async throws -> String? {
        try await pool.withConnection { connection in
            try connection.query(
                """
                SELECT md5(string_agg(t::text, E'\\n' ORDER BY t::text)) FROM (
                    SELECT rider_id, status, product, city, requested_at, pickup_address, fare_amount_minor
                    FROM trips WHERE rider_id BETWEEN \(riders.lowerBound) AND \(riders.upperBound)) t
                """
            ).string(0, 0)
        }
    }

    @Test func skewedSeedingLoadsEachRidersDrawnCountDeterministicallyWhateverTheSplit() async throws {
        try await DataTestDatabase.withPool { (pool: PostgresConnectionPool) async throws in
            let seeder = TripSeeder(pool: pool, logger: DataTestDatabase.logger)
            let riders = Self.skewedRiders
            let distribution = SeedDistribution.skewed(meanTripsPerRider: 20)
            let written = try await seeder.seed(riders: riders, distribution: distribution, seed: 5, progress: nil)
            #expect(written == distribution.totalTrips(riders: riders, seed: 5))

            let counts = try await perRiderCounts(pool, riders)
            #expect(counts.count == riders.count, "every rider gets at least one trip")
            for rider in riders {
                #expect(counts[rider] == distribution.tripCount(rider: rider, seed: 5), "rider \(rider)")
            }
            let sorted = counts.values.sorted()
            #expect(sorted[sorted.count / 2] < 20, "the median rider has fewer trips than the mean")
            #expect(sorted.last! >= 150, "a heavy rider has many times the mean")
            #expect(sorted.filter { $0 <= 3 }.count >= 20, "many riders have only a few trips")
            let first = try await checksum(pool, riders)

            // Seeding the same riders in two halves writes the same rows: counts and trips depend on the rider only.
            let middle = riders.lowerBound + riders.count / 2
            _ = try await seeder.seed(
                riders: riders.lowerBound...middle, distribution: distribution, seed: 5, progress: nil)
            _ = try await seeder.seed(
                riders: (middle + 1)...riders.upperBound, distribution: distribution, seed: 5, progress: nil)
            #expect(try await checksum(pool, riders) == first)
            #expect(try await perRiderCounts(pool, riders) == counts)

            _ = try await seeder.seed(riders: riders, distribution: distribution, seed: 6, progress: nil)
            #expect(try await perRiderCounts(pool, riders) != counts, "another seed draws other counts")
        }
    }

    @Test func skewedCountsAreHeavyTailedAroundTheMean() {
        let distribution = SeedDistribution.skewed(meanTripsPerRider: 100)
        let counts = (1...100_000).map { distribution.tripCount(rider: $0, seed: 1) }
        let mean = Double(counts.reduce(0, +)) / Double(counts.count)
        let sorted = counts.sorted()
        #expect((90.0...115.0).contains(mean), "mean \(mean)")
        #expect((20...45).contains(sorted[50_000]), "median \(sorted[50_000])")
        #expect(sorted.last! >= 5_000 && sorted.last! <= 25_000, "max \(sorted.last!)")
        let overAThousand = counts.filter { $0 > 1_000 }.count
        #expect((300...3_000).contains(overAThousand), "riders over 1000 trips: \(overAThousand)")
        #expect(sorted.first! >= 1)
        #expect(counts == (1...100_000).map { distribution.tripCount(rider: $0, seed: 1) })
        #expect(SeedDistribution.uniform(tripsPerRider: 7).totalTrips(riders: 3...12, seed: 9) == 70)
    }

    @Test func copyFileHoldsTheSameRowsAsTheLoad() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("seed-\(UUID().uuidString).copy").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let riders = 600_001...600_050
        let distribution = SeedDistribution.skewed(meanTripsPerRider: 10)
        let written = try TripSeeder.writeCopyFile(path: path, riders: riders, distribution: distribution, seed: 3)
        #expect(written == distribution.totalTrips(riders: riders, seed: 3))
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "", "the file ends with a newline")
        #expect(lines.count - 1 == written)
        let columns = TripSeeder.copyColumns.split(separator: ",").count
        #expect(
            lines.dropLast().allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == columns }
        )
        var perRider: [Int: Int] = [:]
        for line in lines.dropLast() { perRider[Int(line.prefix { $0 != "\t" })!, default: 0] += 1 }
        for rider in riders { #expect(perRider[rider] == distribution.tripCount(rider: rider, seed: 3)) }

        // Loaded by the seeder, the same riders hold the same rows: compare per-rider fares, a field drawn late.
        try await DataTestDatabase.withPool { (pool: PostgresConnectionPool) async throws in
            _ = try await TripSeeder(pool: pool, logger: DataTestDatabase.logger)
                .seed(riders: riders, distribution: distribution, seed: 3, progress: nil)
            let loaded = try await pool.withConnection { connection in
                try connection.query(
                    "SELECT sum(fare_amount_minor) FROM trips WHERE rider_id BETWEEN \(riders.lowerBound) AND \(riders.upperBound)"
                ).int64(0, 0)
            }
            let fareColumn = 16
            let fromFile = lines.dropLast().reduce(Int64(0)) { sum, line in
                sum + Int64(line.split(separator: "\t", omittingEmptySubsequences: false)[fareColumn])!
            }
            #expect(loaded == fromFile)
        }
    }
}

/// Collects progress reports from the pool's thread.
private final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Int] = []
    func append(_ value: Int) { lock.withLock { storage.append(value) } }
    var values: [Int] { lock.withLock { storage } }
}
