import Foundation
import Testing
import TripHistoryDataTestSupport
import TripHistoryDomain

@testable import TripHistoryData

/// Stats split by city or product on PostgreSQL, checked against sums computed here from the rows the test
/// stores: several currencies, tips and refunds, trips either side of a Paris midnight, and names that sort
/// differently by bytes than by a language's rules. The answer without a dimension stays one bucket per period.
@Suite struct DataAnalystStatsByTests {
    /// One stored trip, written with SQL so the test alone decides every value.
    struct Row {
        let city: String
        let product: String
        let status: TripStatus
        let requestedAt: Date
        let currency: String
        let fare: Int64
        let tips: Int64
        let refunds: Int64
        let distance: Int64
        let duration: Int64
    }

    /// 2026-06-01T22:00:00Z, midnight of June 2 in Paris (CEST).
    private static let parisMidnight = Date(timeIntervalSince1970: 1_780_351_200)

    /// Trips on June 1, 2 and 3 in Paris time, several a second before and at Paris midnight (which is the
    /// same UTC day), across three currencies.
    static let rows: [Row] = {
        let cities = ["Paris", "Lyon", "Zürich", "Ängelholm", "lyon"]
        let products = ["UberX", "Comfort", "uberx"]
        let currencies = ["EUR", "USD", "CHF"]
        let offsets: [TimeInterval] = [-86_399, -3600, -1, 0, 1, 3600, 86_399, 86_400 + 7200]
        return (0..<60).map { index in
            let status: TripStatus = index % 7 == 3 ? .canceled : .completed
            let fare = Int64(100 + index * 37)
            return Row(
                city: cities[index % cities.count], product: products[index / 2 % products.count], status: status,
                requestedAt: parisMidnight.addingTimeInterval(offsets[index % offsets.count]),
                currency: currencies[index / 3 % currencies.count], fare: fare, tips: index % 4 == 0 ? 50 : 0,
                refunds: index % 5 == 0 ? -fare / 2 : 0, distance: Int64(index * 113),
                duration: status == .completed ? Int64(300 + index) : 0)
        }
    }()

    private static func insert(_ rows: [Row], into pool: PostgresConnectionPool) async throws {
        try await pool.withConnection { connection in
            for (index, row) in rows.enumerated() {
                let completed: Date? = row.status == .completed ? row.requestedAt : nil
                try connection.query(
                    """
                    INSERT INTO trips (rider_id, status, product, city, time_zone, requested_at, started_at,
                        completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon,
                        dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, tips_minor,
                        refunds_minor)
                    VALUES (\(Int64(index % 3 + 1)), \(row.status), \(row.product), \(row.city), 'Europe/Paris',
                        \(row.requestedAt)::timestamptz, \(row.requestedAt)::timestamptz, \(completed)::timestamptz,
                        48.85, 2.35, 'here', 48.86, 2.36, 'there', \(row.distance), \(row.duration), \(row.fare),
                        \(row.currency), \(row.tips), \(row.refunds))
                    """
                )
            }
        }
    }

    /// The buckets computed from `rows` alone: days in `timeZone`, each split by `dimension`'s value (or not),
    /// ordered by day and then by the value's UTF-8 bytes.
    static func expected(
        _ rows: [Row], dimension: StatsDimension?, timeZone: String = "Europe/Paris"
    ) -> [TripStatsBucket] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone)!
        struct Key: Hashable {
            let start: Date
            let value: String?
        }
        let groups = Dictionary(grouping: rows) { row in
            Key(
                start: calendar.startOfDay(for: row.requestedAt),
                value: dimension.map { $0 == .city ? row.city : row.product })
        }
        return groups.keys.sorted { left, right in
            left.start != right.start
                ? left.start < right.start
                : Array((left.value ?? "").utf8).lexicographicallyPrecedes(Array((right.value ?? "").utf8))
        }.map { key in
            let trips = groups[key]!
            var fares: [CurrencyCode: Int64] = [:]
            var tips: [CurrencyCode: Int64] = [:]
            var refunds: [CurrencyCode: Int64] = [:]
            for trip in trips {
                let currency = CurrencyCode(trip.currency)!
                fares[currency, default: 0] += trip.fare
                tips[currency, default: 0] += trip.tips
                refunds[currency, default: 0] += trip.refunds
            }
            let completed = trips.filter { $0.status == .completed }
            return TripStatsBucket(
                start: key.start, dimensionValue: key.value, trips: Int64(trips.count),
                completed: Int64(completed.count), canceled: Int64(trips.count - completed.count), fareTotals: fares,
                tipTotals: tips, refundTotals: refunds, distanceMeters: trips.reduce(0) { $0 + $1.distance },
                completedDurationSeconds: completed.reduce(0) { $0 + $1.duration })
        }
    }

    private static let window = try! DateRange(
        from: parisMidnight.addingTimeInterval(-3 * 86_400), to: parisMidnight.addingTimeInterval(3 * 86_400))

    @Test func bucketsByCityAndByProductAreTheStoredRowsSums() async throws {
        try await DataTestDatabase.withMigratedFreshSchema(size: 1) { (pool: PostgresConnectionPool) async throws in
            try await Self.insert(Self.rows, into: pool)
            let repository = PostgresAnalystTripRepository(pool: pool)
            let everything = try AnalystTripFilter(range: Self.window)
            for dimension in [StatsDimension.city, .product, nil] {
                let buckets = try await repository.stats(
                    matching: TripStatsQuery(
                        filter: everything, granularity: .day, timeZone: "Europe/Paris", dimension: dimension))
                #expect(
                    buckets == Self.expected(Self.rows, dimension: dimension), "by \(String(describing: dimension))")
            }
            // Three Paris days, though the trips fall on two UTC days.
            #expect(Set(Self.expected(Self.rows, dimension: nil).map(\.start)).count == 3)
            // The filters narrow first: Lyon's trips (not lyon's), completed only, by product.
            let lyon = try AnalystTripFilter(range: Self.window, status: .completed, city: "Lyon")
            let lyonRows = Self.rows.filter { $0.city == "Lyon" && $0.status == .completed }
            #expect(!lyonRows.isEmpty)
            let byProduct = try await repository.stats(
                matching: TripStatsQuery(filter: lyon, granularity: .day, timeZone: "Europe/Paris", dimension: .product)
            )
            #expect(byProduct == Self.expected(lyonRows, dimension: .product))
            // Grouped by the filtered field itself: one value, in one Paris month (in UTC the first trips fall
            // on May 31).
            let byCity = try await repository.stats(
                matching: TripStatsQuery(filter: lyon, granularity: .month, timeZone: "Europe/Paris", dimension: .city))
            #expect(byCity.map(\.dimensionValue) == ["Lyon"])
            #expect(byCity.map(\.trips) == [Int64(lyonRows.count)])
        }
    }

    /// One more (period, value) bucket than the cap comes back, so the use case can refuse; no more.
    @Test func aSplitAnswerStopsOneBucketPastTheCap() async throws {
        try await DataTestDatabase.withMigratedFreshSchema(size: 1) { (pool: PostgresConnectionPool) async throws in
            let rows = (0..<(TripStatsQuery.maximumBuckets + 5)).map { index in
                Row(
                    city: String(format: "City %05d", index), product: "UberX", status: .completed,
                    requestedAt: Self.parisMidnight, currency: index.isMultiple(of: 2) ? "EUR" : "USD", fare: 100,
                    tips: 0, refunds: 0, distance: 1, duration: 60)
            }
            try await pool.withConnection { connection in
                _ = try connection.query(
                    """
                    INSERT INTO trips (rider_id, status, product, city, time_zone, requested_at, started_at,
                        completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon,
                        dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency)
                    SELECT 1, 'completed', 'UberX', format('City %s', lpad(n::text, 5, '0')), 'UTC',
                        \(Self.parisMidnight)::timestamptz, \(Self.parisMidnight)::timestamptz,
                        \(Self.parisMidnight)::timestamptz, 48.85, 2.35, 'here', 48.86, 2.36, 'there', 1, 60, 100,
                        CASE WHEN n % 2 = 0 THEN 'EUR' ELSE 'USD' END
                    FROM generate_series(0, \(Int64(rows.count - 1))) AS n
                    """
                )
            }
            let buckets = try await PostgresAnalystTripRepository(pool: pool).stats(
                matching: TripStatsQuery(
                    filter: try AnalystTripFilter(range: Self.window), granularity: .day, timeZone: "UTC",
                    dimension: .city))
            let expected = Self.expected(
                Array(rows.prefix(TripStatsQuery.maximumBuckets + 1)), dimension: .city, timeZone: "UTC")
            #expect(buckets.count == TripStatsQuery.maximumBuckets + 1)
            #expect(buckets == expected)
        }
    }

    /// The plan of a split statement on a seeded schema with fresh statistics: one aggregation over the
    /// window, a city filter served by `trips_city_time`, and the numbering of buckets stopped at the cap.
    @Test func aSplitStatementAggregatesOnceAndStopsAtTheCap() async throws {
        try await DataTestDatabase.withMigratedFreshSchema(size: 1) { (pool: PostgresConnectionPool) async throws in
            _ = try await TripSeeder(pool: pool, logger: DataTestDatabase.logger)
                .seed(riders: 500, tripsPerRider: 20, seed: 7, progress: nil)
            let range = try DateRange(
                from: TripSeeder.defaultWindowEnd.addingTimeInterval(-120 * 86_400), to: TripSeeder.defaultWindowEnd)
            func plan(_ statement: AnalystStats) async throws -> String {
                try await pool.withConnection { connection in
                    try connection.execute(unsafeSQL: "ANALYZE trips")
                    let explain = PreparedStatement(
                        name: "data_test_stats_plan_\(UInt32.random(in: 0...UInt32.max))",
                        sql: "EXPLAIN (COSTS OFF) " + statement.prepared.sql)
                    let rows = try connection.execute(explain, statement.makeBindings())
                    return try (0..<rows.count).compactMap { try rows.string($0, 0) }.joined(separator: "\n")
                }
            }
            let inParis = try await plan(
                AnalystStats(
                    filter: try AnalystTripFilter(range: range, city: "Paris"), granularity: .week,
                    timeZone: "Europe/Paris", dimension: .product))
            #expect(inParis.contains("city_time"), "\(inParis)")
            #expect(inParis.contains("Run Condition: (dense_rank() OVER (?) <= "), "\(inParis)")
            let everyCity = try await plan(
                AnalystStats(
                    filter: try AnalystTripFilter(range: range), granularity: .day, timeZone: "UTC", dimension: .city))
            for plan in [inParis, everyCity] {
                #expect(plan.components(separatedBy: "Aggregate").count - 1 == 1, "\(plan)")
                #expect(plan.contains("WindowAgg") && !plan.contains("Nested Loop"), "\(plan)")
            }
        }
    }
}
