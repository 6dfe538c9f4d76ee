import Foundation
import Testing
import TripHistoryDataTestSupport
import TripHistoryDomain

@testable import TripHistoryData

/// The sharded topology's own parts that need no database: the calls the service sends the proxy and the
/// partitions. Their answers against real partitions are checked by `scripts/test-shards`.
@Suite struct ShardedTripRepositoryTests {
    @Test func anAnalystFanOutAddsUpThePartitionFunctionOfItsStatement() throws {
        let range = try DateRange(
            from: Date(timeIntervalSince1970: 1_780_000_000), to: Date(timeIntervalSince1970: 1_782_000_000))
        let filter = try AnalystTripFilter(range: range, product: "UberX")
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

    /// Partitions' pages merged into one node's page: newest first by (requested_at, id), cut at the limit, unless
    /// a partition that returned its whole share ends inside the page (its next trip may belong there).
    @Test func partitionsPagesMergeIntoOneNodesPageOrAskAgainWhenAFullShareEndsInsideIt() throws {
        func trip(_ id: Int64, at second: Int64) throws -> Trip {
            let new = try dataTestTrip(rider: try #require(RiderID(7)), requestedAtMicros: second * 1_000_000)
            return Trip(
                id: try #require(TripID(id)), riderID: new.riderID, details: new.details,
                lifecycle: .recorded(at: new.details.requestedAt), receipt: .empty, adjustments: [])
        }
        // Shares of 2 toward a page of 4. Partition 0 is full, but its last trip is the page's 4th: exact.
        let exact = [
            [try trip(4, at: 100), try trip(8, at: 60)], [try trip(5, at: 90)],
            [try trip(6, at: 80), try trip(2, at: 70)],
        ]
        let page = try #require(AnalystFanOut.merge(exact, share: 2, limit: 4, direction: .older))
        #expect(page.map(\.id.rawValue) == [4, 5, 6, 2])
        // The same pages oldest first: partition 2 is full and its last trip (80) is the page's 3rd of 4.
        #expect(AnalystFanOut.merge(exact, share: 2, limit: 4, direction: .newer) == nil)
        // Equal times are ordered by id.
        let tied = [[try trip(9, at: 50)], [try trip(3, at: 50)]]
        #expect(AnalystFanOut.merge(tied, share: 2, limit: 4, direction: .older)?.map(\.id.rawValue) == [9, 3])
        // Fewer trips than the page, with a partition full: it may have more.
        #expect(
            AnalystFanOut.merge([[try trip(4, at: 100), try trip(8, at: 60)]], share: 2, limit: 4, direction: .older)
                == nil)
        // Each partition's whole page (the share is the limit): always the merge.
        #expect(AnalystFanOut.merge(exact, share: 4, limit: 4, direction: .newer)?.map(\.id.rawValue) == [8, 2, 6, 5])
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
