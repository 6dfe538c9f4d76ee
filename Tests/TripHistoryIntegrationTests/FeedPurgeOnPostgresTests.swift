import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import TripHistoryData
import TripHistoryDataTestSupport
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryTestSupport

@testable import TripHistoryHTTP

/// The changes feeds over a real socket once the purge has removed entries a token has not read yet: the
/// token is answered `410 sync_token_expired`, never `200` with a hole, on the rider's feed and the analysts'.
@Suite struct FeedPurgeOnPostgresTests {
    @Test func aTokenTakenInTheMiddleOfABacklogIsRefusedOnceItsNextEntriesArePurged() async throws {
        try await DataTestDatabase.withMigratedFreshSchema { (pool: PostgresConnectionPool) async throws in
            let repository = PostgresTripRepository(pool: pool)
            let api = await TestAPI(
                repository: repository, analystRepository: PostgresAnalystTripRepository(pool: pool))
            let rider = DataTestDatabase.randomRiderID()
            let riderHeaders = TestAPI<PostgresTripRepository>.bearer(try await api.riderToken(rider.rawValue))
            let analystHeaders = TestAPI<PostgresTripRepository>.bearer(try await api.analystToken())
            let feed = "/v1/riders/\(rider)/trips/changes"
            try await api.testLive { client in
                let riderStart = try await client.execute(uri: feed, method: .get, headers: riderHeaders) {
                    try #require($0.json().string("page.next_since"))
                }
                let analystStart = try await client.execute(
                    uri: "/v1/trips/changes", method: .get, headers: analystHeaders
                ) { try #require($0.json().string("page.next_since")) }
                for index in 0..<3 {
                    _ = try await repository.record(
                        try dataTestTrip(rider: rider, requestedAtMicros: 1_767_225_600_000_000 + Int64(index)),
                        idempotency: nil)
                }
                // One page of one entry each: the tokens now point in the middle of a backlog of three.
                let riderToken = try await client.execute(
                    uri: "\(feed)?since=\(riderStart)&limit=1", method: .get, headers: riderHeaders
                ) { response in
                    #expect(response.json()["page.has_more"] as? Bool == true)
                    return try #require(response.json().string("page.next_since"))
                }
                let analystToken = try await Self.firstEntryToken(
                    client, after: analystStart, headers: analystHeaders)
                // The two later entries were written 40 days ago, and the purge a server runs removes them.
                try await pool.withConnection { connection in
                    _ = try connection.query(
                        "UPDATE trip_changes SET changed_at = now() - make_interval(days => 40) WHERE seq >= 2")
                }
                let purger = ExpiredRowPurger(pool: pool, expiries: [.tripChanges(.seconds(31 * 86_400))])
                #expect(try await purger.purgeExpired() == 2)
                for (uri, headers) in [
                    ("\(feed)?since=\(riderToken)", riderHeaders),
                    ("/v1/trips/changes?since=\(analystToken)", analystHeaders),
                ] {
                    try await client.execute(uri: uri, method: .get, headers: headers) { response in
                        #expect(response.status == .gone, "\(uri)")
                        #expect(response.json().string("code") == "sync_token_expired")
                        #expect(response.json().string("param") == "since")
                        #expect(response.headers[.contentType] == "application/problem+json")
                    }
                }
                // A token for now still reads, and sees what is written next.
                let now = try await client.execute(uri: feed, method: .get, headers: riderHeaders) {
                    try #require($0.json().string("page.next_since"))
                }
                _ = try await repository.record(
                    try dataTestTrip(rider: rider, requestedAtMicros: 1_767_225_600_000_009), idempotency: nil)
                try await client.execute(uri: "\(feed)?since=\(now)", method: .get, headers: riderHeaders) { response in
                    #expect(response.status == .ok)
                    #expect(response.json().trips.count == 1)
                }
            }
        }
    }

    /// The analysts' feed after `since`, one entry a page, until it has one (the feed reads only transactions
    /// older than every running one, and other suites' may run for a moment): the token after that entry.
    private static func firstEntryToken(
        _ client: any TestClientProtocol, after since: String, headers: HTTPFields
    ) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let (count, next) = try await client.execute(
                uri: "/v1/trips/changes?since=\(since)&limit=1", method: .get, headers: headers
            ) { response in
                (response.json().trips.count, try #require(response.json().string("page.next_since")))
            }
            if count == 1 || ContinuousClock.now > deadline { return next }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
