import Foundation
import Testing
import TripHistoryDataTestSupport
import TripHistoryDomain

@testable import TripHistoryData

/// The sharded topology's own parts that need no database: the calls the service sends the proxy and the
/// partitions. Their answers against real partitions are checked by `scripts/test-shards`.
@Suite struct ShardedTripRepositoryTests {
    @Test func aProxyCallIsTheStatementsFunctionWithItsParametersAndResultFormat() throws {
        let query = TripPageQuery(
            riderID: try #require(RiderID(7)), filter: .all, position: nil, fetchLimit: 21)
        let call = ProxyCall(RiderTripsPage(query))
        #expect(call.prepared.name == "proxy_trips_older_v2")
        #expect(call.prepared.sql == "SELECT * FROM trips_older_v2($1, $2, $3, $4, $5, $6, $7)")
        #expect(call.prepared.resultFormat == .binary)
        #expect(call.makeBindings().count == RiderTripsPage(query).makeBindings().count)
        let count = ProxyCall(RiderLastChange(riderID: try #require(RiderID(7))))
        #expect(count.prepared.sql == "SELECT * FROM trip_changes_last_v1($1)")
    }

    @Test func anAnalystFanOutMergesThePartitionFunctionOfItsStatement() throws {
        let range = try DateRange(
            from: Date(timeIntervalSince1970: 1_780_000_000), to: Date(timeIntervalSince1970: 1_782_000_000))
        let filter = try AnalystTripFilter(range: range, product: "UberX")
        let statement = AnalystTripsPage(
            direction: .newer, filter: filter, keyRequestedAt: .infinity, keyID: .max, limit: 11)
        // On one partition (or a rider's), the partition's page is the page.
        let page = AnalystFanOut.page(statement, direction: .newer, partitions: 1)
        #expect(page.prepared.name == "proxy_analyst_trips_newer_c0p1r0_v2")
        #expect(
            page.prepared.sql == "SELECT * FROM analyst_trips_newer_c0p1r0_v2($1, $2, $3, $4, $5, $6, $7) AS t "
                + "ORDER BY t.requested_at ASC, t.id ASC LIMIT $7")
        // On 4, each partition's share first (9 of 11, then $8), checked by the partition of each id ($9), and
        // the full page of each again only when a partition that filled its share ends inside the page.
        let shares = AnalystFanOut.page(statement, direction: .newer, partitions: 4)
        #expect(shares.prepared.name == "proxy_analyst_trips_newer_c0p1r0_v2_shares")
        #expect(shares.makeBindings().count == 9)
        #expect(shares.prepared.sql.contains("FROM analyst_trips_newer_c0p1r0_v2($1, $2, $3, $4, $5, $6, $8) AS t"))
        #expect(shares.prepared.sql.contains("GROUP BY (t).id % $9"))
        #expect(shares.prepared.sql.contains("HAVING count(*) = $8 AND max(rank) < $7"))
        #expect(
            shares.prepared.sql.contains(
                "(SELECT t.* FROM analyst_trips_newer_c0p1r0_v2($1, $2, $3, $4, $5, $6, $7) AS t "
                    + "WHERE NOT (SELECT yes FROM exact)"))
        let count = AnalystFanOut.count(AnalystTripsCount(filter: filter, .exact(limit: 10_001)))
        #expect(
            count.prepared.sql == "SELECT least(coalesce(sum(t.n), 0), $5)::bigint "
                + "FROM analyst_count_c0p1r0_v1($1, $2, $3, $4, $5) AS t(n)")
        // Stats by city: the partitions' parts of the same filter, added up, capped at the buckets one node keeps.
        let stats = AnalystFanOut.stats(
            TripStatsQuery(filter: filter, granularity: .day, timeZone: "Europe/Paris", dimension: .city))
        #expect(stats.prepared.name == "proxy_analyst_stats_parts_by_city_c0p1r0_v1")
        #expect(stats.prepared.sql.contains("FROM analyst_stats_parts_by_city_c0p1r0_v1($1, $2, $3, $4, $5, $6) AS p"))
        #expect(stats.prepared.sql.contains("WHERE bucket_number <= \(TripStatsQuery.maximumBuckets + 1)"))
        #expect(stats.makeBindings().count == 6)
    }

    /// A partition's share of a page: what an even spread gives it plus three standard deviations and one, never
    /// more than the page.
    @Test(arguments: [(100, 4, 39), (20, 4, 12), (1_000, 64, 29), (11, 4, 9), (100, 1, 100), (5, 4, 5), (0, 4, 0)])
    func aPartitionsShareOfAPageIsItsEvenSpreadWithRoom(limit: Int, partitions: Int, share: Int) {
        #expect(AnalystFanOut.share(of: limit, among: partitions) == share)
    }
}

/// When the riders' direct path to a partition reads the proxy's map again and runs a call once more.
@Suite struct PartitionRoutesTests {
    @Test(arguments: [
        (PostgresError(kind: .connectionFailed, message: "not currently accepting connections"), true),
        (PostgresError(kind: .connectionLost, message: "server closed the connection"), true),
        (PostgresError(kind: .server, sqlState: "57P01", message: "terminating connection"), true),
        (PostgresError(kind: .server, sqlState: "25006", message: "read-only transaction"), true),
        (PostgresError(kind: .server, sqlState: "TH409", message: "conflict"), false),
        (PostgresError(kind: .server, sqlState: "57014", message: "statement timeout"), false),
    ])
    func aCallFailingAsOnAMovedPartitionsOldCopyReadsTheMapAgain(error: PostgresError, mayHaveMoved: Bool) {
        #expect(PartitionRoutes.mayHaveMoved(error) == mayHaveMoved)
    }
}
