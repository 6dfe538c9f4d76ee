import Foundation
import Testing
import TripHistoryDataTestSupport
import TripHistoryDomain

@testable import TripHistoryData

/// The sharded repository's own parts that need no database: the calls it sends the proxy and the errors it
/// makes of the partitions' states. Its answers against real partitions are checked by `scripts/test-shards`.
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
        let page = AnalystFanOut.page(
            AnalystTripsPage(direction: .newer, filter: filter, keyRequestedAt: .infinity, keyID: .max, limit: 11),
            direction: .newer)
        #expect(page.prepared.name == "proxy_analyst_trips_newer_c0p1r0_v2")
        #expect(
            page.prepared.sql == "SELECT * FROM analyst_trips_newer_c0p1r0_v2($1, $2, $3, $4, $5, $6, $7) AS t "
                + "ORDER BY t.requested_at ASC, t.id ASC LIMIT $7")
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

    @Test func aRecordCallPassesTheTripItsReceiptsTenPartsAndTheKey() throws {
        let trip = try dataTestTrip(rider: try #require(RiderID(7)), requestedAtMicros: 1_780_000_000_000_000)
        let call = ProxyWriteCall.record(
            trip, idempotency: IdempotencyRequest(scope: "service:s", key: "k", fingerprint: "f"))
        // 18 trip fields, 10 receipt parts, scope, key and fingerprint: trip_history_record_trip's 31 arguments.
        #expect(call.makeBindings().count == 31)
        #expect(call.prepared.sql.hasPrefix("SELECT (trip).*, replayed FROM trip_history_record_trip($1, $2, "))
        #expect(call.prepared.sql.hasSuffix("$31)"))
        // The rider, trip, checked version, kind, amount, reason and the key's three: its function's 9 arguments.
        let adjustment = ProxyWriteCall.adjust(
            try NewAdjustment.requested(kind: .tip, amountMinor: 100, reason: "thanks"),
            tripID: try #require(TripID(4)),
            riderID: try #require(RiderID(7)), checkedVersion: 2, idempotency: nil)
        #expect(adjustment.makeBindings().count == 9)
        #expect(adjustment.prepared.sql.hasSuffix("trip_history_record_adjustment($1, $2, $3, $4, $5, $6, $7, $8, $9)"))
    }

    @Test(arguments: [
        ("TH409", TripHistoryError.conflict), ("TH422", .idempotencyKeyReused), ("TH410", .riderErased),
        ("TH404", .notFound), ("TH412", .preconditionFailed),
    ])
    func eachPartitionStateBecomesItsDomainError(state: String, expected: TripHistoryError) {
        let error = PostgresError(kind: .server, sqlState: state, message: "from a partition")
        #expect(ShardedTripRepository.translate(error) as? TripHistoryError == expected)
    }

    @Test func aMissingStandbyCopyOrAnyOtherStateIsLeftToBeUnavailable() {
        for state in ["TH503", "TH501", "57014", "08006"] {
            #expect(ShardedTripRepository.translate(PostgresError(kind: .server, sqlState: state, message: "")) == nil)
        }
    }
}
