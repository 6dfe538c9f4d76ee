import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TripHistoryData
import TripHistoryDataTestSupport
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryTestSupport

@testable import TripHistoryAPI
@testable import TripHistoryHTTP

/// The whole stack, HTTP to PostgreSQL, as the composition root wires it.
@Suite struct APIOnPostgresTests {
    typealias API = TestAPI<PostgresTripRepository>

    private func withAPI(_ body: (API, PostgresConnectionPool) async throws -> Void) async throws {
        try await DataTestDatabase.withPool(size: 4) { pool in
            let api = await TestAPI(repository: PostgresTripRepository(pool: pool))
            try await body(api, pool)
        }
    }

    private static func postBody(rider: RiderID, requestedAt: String, distance: Int = 5230) -> ByteBuffer {
        ByteBuffer(string: TripFixtures.recordBody(rider: rider, requestedAt: requestedAt, distance: distance))
    }

    @Test func aRecordedTripIsInTheListAtOnceAndOnlyForItsRider() async throws {
        try await withAPI { api, _ in
            let rider = DataTestDatabase.randomRiderID()
            let other = DataTestDatabase.randomRiderID()
            let service = try await api.recordHeaders()
            let owner = API.bearer(try await api.riderToken(rider.rawValue))
            let stranger = API.bearer(try await api.riderToken(other.rawValue))
            try await api.test { client in
                var ids: [String] = []
                for minute in 0..<5 {
                    let id = try await client.execute(
                        uri: "/v1/trips", method: .post, headers: service,
                        body: Self.postBody(rider: rider, requestedAt: "2026-03-01T10:0\(minute):00-05:00")
                    ) { response in
                        #expect(response.status == .created)
                        return try #require(response.json().string("id"))
                    }
                    ids.insert(id, at: 0)
                    // Read-after-write: the list shows the trip as soon as the POST has answered.
                    try await client.execute(uri: "/v1/riders/\(rider)/trips", method: .get, headers: owner) {
                        response in
                        #expect(response.json().tripIDs == ids)
                    }
                }
                try await client.execute(uri: "/v1/riders/\(rider)/trips/\(ids[0])", method: .get, headers: owner) {
                    #expect($0.status == .ok)
                    #expect($0.json().string("requested_at") == "2026-03-01T15:04:00.000000Z")
                    #expect($0.json().string("display.time") == "10:04\u{202F}AM")
                }
                for uri in ["/v1/riders/\(rider)/trips", "/v1/riders/\(rider)/trips/\(ids[0])"] {
                    try await client.execute(uri: uri, method: .get, headers: stranger) {
                        #expect($0.status == .notFound)
                    }
                }
                try await client.execute(uri: "/v1/riders/\(other)/trips/\(ids[0])", method: .get, headers: stranger) {
                    #expect($0.status == .notFound)
                }
            }
        }
    }

    @Test func aWalkSeesEveryTripThatExistedOnceWhileTripsAreInserted() async throws {
        try await withAPI { api, _ in
            let rider = DataTestDatabase.randomRiderID()
            // 60 trips over 12 distinct request times, so ties span page boundaries.
            var existing: [Trip] = []
            for index in 0..<60 {
                let micros: Int64 = 1_767_225_600_000_000 + Int64(index / 5) * 3_600_000_000
                existing.append(
                    try await api.repository.record(
                        dataTestTrip(rider: rider, requestedAtMicros: micros), idempotency: nil
                    ).trip
                )
            }
            let headers = API.bearer(try await api.riderToken(rider.rawValue))
            let service = try await api.recordHeaders()
            let expected = existing.map(\.id.description)
            try await api.test { client in
                var seen: [String] = []
                var keys: [(String, String)] = []
                var uri: String? = "/v1/riders/\(rider)/trips?limit=7"
                var page = 0
                while let current = uri {
                    try #require(page < 1_000, "the walk did not end")
                    let json = try await client.execute(uri: current, method: .get, headers: headers) { $0.json() }
                    seen += json.tripIDs
                    keys += json.trips.map { ($0["requested_at"] as? String ?? "", $0["id"] as? String ?? "") }
                    uri = json.string("page.next_cursor").map { "/v1/riders/\(rider)/trips?limit=7&cursor=\($0)" }
                    // Inserts land before, inside and after the walk's position, some sharing its times.
                    for (offset, time) in ["2026-01-01T05:00:00Z", "2026-01-01T00:00:00Z", "2027-01-01T00:00:00Z"]
                        .enumerated()
                    {
                        try await client.execute(
                            uri: "/v1/trips", method: .post, headers: service,
                            body: Self.postBody(rider: rider, requestedAt: time, distance: page * 10 + offset)
                        ) { #expect($0.status == .created) }
                    }
                    page += 1
                }
                #expect(Set(expected).isSubset(of: Set(seen)))
                #expect(seen.count == Set(seen).count, "a trip appeared twice")
                let order = keys.map { key in
                    TripKey(requestedAtMicros: rfc3339Micros(key.0) ?? 0, id: TripID(key.1) ?? TripID(1)!)
                }
                #expect(zip(order, order.dropFirst()).allSatisfy { $0 > $1 }, "the walk is not strictly newest first")
            }
        }
    }

    @Test func dateOnlyBoundsFollowTheZoneAcrossDaylightSavingChanges() async throws {
        try await withAPI { api, _ in
            let rider = DataTestDatabase.randomRiderID()
            // New York springs forward on 2026-03-08: that day starts at 05:00Z and the next at 04:00Z.
            let times = [
                "2026-03-08T04:59:59.999999Z", "2026-03-08T05:00:00Z", "2026-03-09T03:59:59.999999Z",
                "2026-03-09T04:00:00Z", "2026-03-10T03:59:59Z", "2026-03-10T04:00:00Z",
            ]
            var recorded: [String: TripID] = [:]
            for time in times {
                let micros = try #require(rfc3339Micros(time))
                recorded[time] = try await api.repository.record(
                    dataTestTrip(rider: rider, requestedAtMicros: micros), idempotency: nil
                ).trip.id
            }
            let ids = recorded
            let headers = API.bearer(try await api.analystToken())
            try await api.test { client in
                try await client.execute(
                    uri: "/v1/riders/\(rider)/trips?from=2026-03-08&to=2026-03-09&tz=America/New_York", method: .get,
                    headers: headers
                ) { response in
                    let json = response.json()
                    #expect(json.tripIDs == [ids[times[2]]!, ids[times[1]]!].map(\.description))
                    #expect(json.string("filter.from") == "2026-03-08T05:00:00.000000Z")
                    #expect(json.string("filter.to") == "2026-03-09T04:00:00.000000Z")
                }
                try await client.execute(
                    uri: "/v1/riders/\(rider)/trips?from=2026-03-09&to=2026-03-10&tz=America/New_York", method: .get,
                    headers: headers
                ) { response in
                    #expect(response.json().tripIDs == [ids[times[4]]!, ids[times[3]]!].map(\.description))
                }
                // Without tz, dates are UTC days.
                try await client.execute(
                    uri: "/v1/riders/\(rider)/trips?from=2026-03-09&to=2026-03-10", method: .get, headers: headers
                ) { response in
                    #expect(response.json().tripIDs == [ids[times[3]]!, ids[times[2]]!].map(\.description))
                }
            }
        }
    }

    @Test func idempotencyHoldsAcrossConcurrentTwins() async throws {
        try await withAPI { api, pool in
            let rider = DataTestDatabase.randomRiderID()
            let key = "twin-\(rider)"
            let headers = try await api.recordHeaders(idempotencyKey: key)
            let body = Self.postBody(rider: rider, requestedAt: "2026-04-01T08:00:00Z")
            try await api.test { client in
                let statuses = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
                    for _ in 0..<6 {
                        group.addTask {
                            try await client.execute(uri: "/v1/trips", method: .post, headers: headers, body: body) {
                                ($0.status, $0.json().string("id"))
                            }
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(statuses.allSatisfy { $0.0 == .created || $0.0 == .conflict }, "\(statuses.map(\.0))")
                let ids = Set(statuses.compactMap { $0.0 == .created ? $0.1 : nil })
                #expect(ids.count == 1)
                try await client.execute(
                    uri: "/v1/trips", method: .post, headers: headers,
                    body: Self.postBody(rider: rider, requestedAt: "2026-04-01T08:00:00Z", distance: 1)
                ) { #expect($0.json().string("code") == "idempotency_key_reused") }
            }
            let count = try await pool.withConnection { connection in
                try connection.query("SELECT count(*) FROM trips WHERE rider_id = \(String(rider.rawValue))").int64(
                    0, 0)
            }
            #expect(count == 1)
        }
    }

    @Test func stoppedPostgreSQLGives503AndServiceResumesByItself() async throws {
        guard let pgctl = DataTestDatabase.serverControl() else { return }
        let pool = try await DataTestDatabase.makePool(size: 2, acquireTimeout: .milliseconds(500))
        let api = await TestAPI(repository: PostgresTripRepository(pool: pool))
        let headers = API.bearer(try await api.analystToken())
        try await DataDatabaseGate.shared.withExclusive {
            try await api.test { client in
                try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: headers) {
                    #expect($0.status == .ok)
                }
                try await DataTestDatabase.controlServer(pgctl, "-m fast -w stop")
                do {
                    for uri in ["/v1/riders/1/trips", "/v1/riders/1/trips/1"] {
                        try await client.execute(uri: uri, method: .get, headers: headers) { response in
                            #expect(response.status == .serviceUnavailable)
                            #expect(response.headers[.retryAfter] != nil)
                            let json = response.json()
                            #expect(json.string("code") == "unavailable")
                            #expect(json.string("detail")?.lowercased().contains("select") == false)
                        }
                    }
                }
                try await DataTestDatabase.controlServer(pgctl, "-w start")
                var status: HTTPResponse.Status = .serviceUnavailable
                for _ in 0..<20 where status != .ok {
                    status = try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: headers) {
                        $0.status
                    }
                    if status != .ok { try await Task.sleep(for: .milliseconds(250)) }
                }
                #expect(status == .ok)
            }
        }
        await pool.shutdown()
    }
}

/// Microseconds since 1970 of an RFC 3339 time, for building fixtures and checking order.
private func rfc3339Micros(_ text: String) -> Int64? {
    RFC3339.parseTimestamp(text).map(Timestamp.micros)
}
