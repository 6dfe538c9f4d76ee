import Foundation
import Testing
import TripHistoryData
import TripHistoryDataTestSupport
import TripHistoryDomain

/// Stats over stored values far beyond what `NewTrip.validated` admits, written with SQL as a legacy writer
/// or a hand-fixed row could: totals that fit are exact, a total that does not fit in Int64 is refused with
/// a `ValidationError` on `from`, and nothing traps.
@Suite struct DataAnalystStatsTests {
    /// 2026-06-01T00:00:00Z.
    private static let day = Date(timeIntervalSince1970: 1_780_272_000)

    private static func insert(
        _ connection: PostgresConnection, rider: RiderID, hour: Int, status: TripStatus = .completed,
        distance: Int64, duration: Int64 = 600, fare: Int64, currency: String
    ) throws {
        let requested = day.addingTimeInterval(TimeInterval(hour * 3600))
        let completed: Date? = status == .completed ? requested : nil
        try connection.query(
            """
            INSERT INTO trips (rider_id, status, product, city, time_zone, requested_at, started_at, completed_at,
                pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address,
                distance_m, duration_s, fare_amount_minor, fare_currency)
            VALUES (\(rider), \(status), 'UberX', 'Paris', 'Europe/Paris', \(requested)::timestamptz,
                \(requested)::timestamptz, \(completed)::timestamptz, 48.85, 2.35, 'here', 48.86, 2.36, 'there',
                \(distance), \(duration), \(fare), \(currency))
            """
        )
    }

    private static func stats(
        _ pool: PostgresConnectionPool, rider: RiderID
    ) async throws -> [TripStatsBucket] {
        let range = try DateRange(from: day, to: day.addingTimeInterval(86_400))
        let filter = try AnalystTripFilter(range: range, riderID: rider)
        return try await PostgresAnalystTripRepository(pool: pool)
            .stats(matching: TripStatsQuery(filter: filter, granularity: .day, timeZone: "UTC"))
    }

    private static func expectOutOfRange(_ pool: PostgresConnectionPool, rider: RiderID, total: String) async {
        await #expect {
            _ = try await stats(pool, rider: rider)
        } throws: { error in
            guard let error = error as? ValidationError else { return false }
            return error.field == "from" && error.reason.contains(total) && error.reason.contains(String(Int64.max))
        }
    }

    /// The sequence, stored directly: two trips of 9e18 m on one day in two currencies. Each
    /// currency's sum fits; their total distance does not.
    @Test func distancesOfTwoCurrenciesBeyondInt64AreRefusedNotTrapped() async throws {
        try await DataTestDatabase.withPool { pool in
            let rider = DataTestDatabase.randomRiderID()
            try await pool.withConnection { connection in
                try Self.insert(
                    connection, rider: rider, hour: 9, distance: 9_000_000_000_000_000_000, fare: 1850, currency: "EUR")
                try Self.insert(
                    connection, rider: rider, hour: 10, distance: 9_000_000_000_000_000_000, fare: 1900, currency: "USD"
                )
            }
            await Self.expectOutOfRange(pool, rider: rider, total: "total_distance_m")
        }
    }

    /// Two fares in one currency whose sum PostgreSQL forms as numeric beyond the bigint range.
    @Test func aFareSumBeyondInt64IsRefusedNotMisread() async throws {
        try await DataTestDatabase.withPool { pool in
            let rider = DataTestDatabase.randomRiderID()
            try await pool.withConnection { connection in
                try Self.insert(connection, rider: rider, hour: 9, distance: 1000, fare: Int64.max, currency: "IRR")
                try Self.insert(connection, rider: rider, hour: 11, distance: 1000, fare: Int64.max, currency: "IRR")
            }
            await Self.expectOutOfRange(pool, rider: rider, total: "total_fare_minor.IRR")
        }
    }

    /// Durations of completed trips whose sum leaves the bigint range in SQL.
    @Test func aDurationSumBeyondInt64IsRefused() async throws {
        try await DataTestDatabase.withPool { pool in
            let rider = DataTestDatabase.randomRiderID()
            try await pool.withConnection { connection in
                for hour in [8, 9] {
                    try Self.insert(
                        connection, rider: rider, hour: hour, distance: 1, duration: Int64.max, fare: 1, currency: "EUR"
                    )
                }
            }
            await Self.expectOutOfRange(pool, rider: rider, total: "mean_duration_s")
        }
    }

    /// Extreme values whose totals still fit are reported exactly, across currencies too.
    @Test func extremeTotalsThatFitAreExact() async throws {
        try await DataTestDatabase.withPool { pool in
            let rider = DataTestDatabase.randomRiderID()
            let half = Int64.max / 2
            try await pool.withConnection { connection in
                try Self.insert(
                    connection, rider: rider, hour: 9, distance: half, duration: half, fare: half, currency: "EUR")
                try Self.insert(
                    connection, rider: rider, hour: 10, distance: half, duration: half, fare: half, currency: "EUR")
                try Self.insert(
                    connection, rider: rider, hour: 11, status: .canceled, distance: 1, fare: Int64.max, currency: "USD"
                )
            }
            let buckets = try await Self.stats(pool, rider: rider)
            #expect(buckets.count == 1)
            let bucket = try #require(buckets.first)
            #expect(bucket.start == Self.day)
            #expect(bucket.trips == 3 && bucket.completed == 2 && bucket.canceled == 1)
            #expect(bucket.distanceMeters == Int64.max)
            #expect(bucket.completedDurationSeconds == Int64.max - 1)
            #expect(bucket.fareTotals == [CurrencyCode("EUR")!: Int64.max - 1, CurrencyCode("USD")!: Int64.max])
        }
    }
}
