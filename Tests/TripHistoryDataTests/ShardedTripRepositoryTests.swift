import Foundation
import Testing
import TripHistoryDataTestSupport
import TripHistoryDomain

@testable import TripHistoryData

/// The sharded topology's own parts that need no database: the calls the service sends the proxy and the
/// partitions, and how it merges the partitions' answers. Their answers against real partitions are checked by
/// `scripts/test-shards`.
@Suite struct ShardedTripRepositoryTests {
    /// Partitions' stats rows in one node's order: by period, then dimension value by its bytes (so "Zürich"
    /// after "Zug", as `COLLATE "C"` orders them), a bucket's rows from every partition together, which `buckets`
    /// adds up; with a dimension, cut after the bucket limit. Counts add up, saturating.
    @Test func partitionsStatsRowsFollowOneNodesBucketOrderAndAreCutAtTheBucketLimit() throws {
        let euro = try #require(CurrencyCode("EUR"))
        let franc = try #require(CurrencyCode("CHF"))
        func row(_ day: Int64, _ city: String?, _ currency: CurrencyCode, trips: Int64) -> AnalystStatsRow {
            AnalystStatsRow(
                startMicros: day * 86_400_000_000, dimensionValue: city, currency: currency, trips: trips,
                completed: trips, canceled: 0, fareTotal: 100 * trips, distanceTotal: 1000 * trips,
                completedDuration: 60 * trips, tipsTotal: 0, refundsTotal: 0)
        }
        let partitions = [
            [row(1, "Zug", franc, trips: 1), row(1, "Zürich", franc, trips: 2), row(2, "Basel", franc, trips: 3)],
            [row(1, "Zug", euro, trips: 4), row(1, "Zürich", franc, trips: 5)],
            [row(1, "Basel", franc, trips: 6)],
        ]
        let merged = AnalystFanOut.stats(partitions, bucketLimit: nil)
        #expect(
            merged.map { "\($0.startMicros / 86_400_000_000) \($0.dimensionValue ?? "")" } == [
                "1 Basel", "1 Zug", "1 Zug", "1 Zürich", "1 Zürich", "2 Basel",
            ])
        let buckets = try PostgresAnalystTripRepository.buckets(merged)
        #expect(buckets.map(\.trips) == [6, 5, 7, 3])
        #expect(buckets[1].fareTotals == [franc: 100, euro: 400])
        // Two buckets kept: day 1's Basel and Zug, with Zug's rows from both partitions.
        let cut = AnalystFanOut.stats(partitions, bucketLimit: 2)
        #expect(cut.map(\.trips) == [6, 1, 4] || cut.map(\.trips) == [6, 4, 1])
        #expect(AnalystFanOut.total([3, 4, 10_001]) == 10_008)
        #expect(AnalystFanOut.total([.max, 1]) == .max)
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
        #expect(AnalystFanOut.merge(exact, limit: 4, direction: .newer).map(\.id.rawValue) == [8, 2, 6, 5])
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
