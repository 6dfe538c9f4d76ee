import Foundation
import Testing
import TripHistoryData
import TripHistoryDataTestSupport
import TripHistoryDomain

/// Which plan PostgreSQL executes for an analyst page, read from the session's `pg_prepared_statements` on a
/// pool of one connection: a page without a product filter runs its generic plan from the first execution, so
/// it is never planned anew per execution; a page filtered by product is left to the server's choice, which
/// plans at least the first five executions with their values.
@Suite struct DataAnalystPlanTests {
    /// 2026-06-01T00:00:00Z.
    private static let day = Date(timeIntervalSince1970: 1_780_272_000)

    @Test func aPageWithoutAProductFilterRunsItsGenericPlanAndAProductFilterIsLeftToThePlanner() async throws {
        try await DataTestDatabase.withPool(size: 1, pipelinedConnections: 0) { pool in
            let repository = PostgresAnalystTripRepository(pool: pool)
            let range = try DateRange(from: Self.day, to: Self.day.addingTimeInterval(86_400))
            let byCity = AnalystTripQuery(
                filter: try AnalystTripFilter(range: range, city: "Paris"), position: nil, fetchLimit: 21)
            let byProduct = AnalystTripQuery(
                filter: try AnalystTripFilter(range: range, product: "UberX"), position: nil, fetchLimit: 21)
            let executions = 7
            for _ in 0..<executions {
                _ = try await repository.trips(matching: byCity)
                _ = try await repository.trips(matching: byProduct)
            }
            let plans = try await pool.withConnection { connection in
                let rows = try connection.query(
                    """
                    SELECT name, generic_plans, custom_plans FROM pg_prepared_statements
                    WHERE name LIKE 'analyst_trips_older_%'
                    """
                )
                // Each statement's [generic plans, custom plans].
                var plans: [String: [Int64]] = [:]
                for row in 0..<rows.count {
                    plans[try rows.string(row, 0) ?? ""] = [try rows.int64(row, 1) ?? -1, try rows.int64(row, 2) ?? -1]
                }
                return plans
            }
            #expect(plans["analyst_trips_older_c1p0r0_v2"] == [Int64(executions), 0])
            let product = try #require(plans["analyst_trips_older_c0p1r0_v2"])
            #expect(product[0] + product[1] == Int64(executions))
            #expect(product[1] >= 5)
        }
    }
}
