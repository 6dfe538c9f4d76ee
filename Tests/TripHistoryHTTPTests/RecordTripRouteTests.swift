import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOFoundationEssentialsCompat
import Testing
import TripHistoryAPI
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryHTTP
import TripHistoryTestSupport

@Suite struct RecordTripRouteTests {
    nonisolated(unsafe) static let validBody: [String: Any] = [
        "rider_id": "7", "status": "completed", "product": "UberX", "city": "Tokyo", "time_zone": "Asia/Tokyo",
        "requested_at": "2026-03-01T09:00:00+09:00", "started_at": "2026-03-01T09:04:00+09:00",
        "completed_at": "2026-03-01T09:25:00+09:00",
        "pickup": ["lat": 35.6812, "lon": 139.7671, "address": "Tokyo Station, 1 Chome Marunouchi"],
        "dropoff": ["lat": 35.6586, "lon": 139.7454, "address": "Tokyo Tower, 4 Chome-2-8 Shibakoen"],
        "distance_m": 5230, "duration_s": 1260, "fare": ["amount_minor": 1500, "currency": "JPY"],
    ]

    static func body(_ changes: [String: Any?] = [:]) -> ByteBuffer {
        var body = validBody
        for (path, value) in changes {
            let parts = path.split(separator: ".").map(String.init)
            if parts.count == 2 {
                var nested = body[parts[0]] as? [String: Any] ?? [:]
                nested[parts[1]] = value
                body[parts[0]] = nested
            } else {
                body[parts[0]] = value ?? nil
            }
        }
        return ByteBuffer(data: try! JSONSerialization.data(withJSONObject: body))
    }

    @Test func recordsATripAndItShowsUpAtOnce() async throws {
        let repository = InMemoryTripRepository()
        let api = await TestAPI(repository: repository)
        let headers = try await api.recordHeaders()
        let rider = TestAPI<InMemoryTripRepository>.bearer(try await api.riderToken(7))
        try await api.test { client in
            let id = try await client.execute(uri: "/v1/trips", method: .post, headers: headers, body: Self.body()) {
                response in
                #expect(response.status == .created)
                let json = response.json()
                let id = try #require(json.string("id"))
                #expect(response.headers[.location] == "/v1/riders/7/trips/\(id)")
                #expect(ServerTimingExpectations.isComputed(response.headers[ServerTimingExpectations.name]))
                #expect(json.string("requested_at") == "2026-03-01T00:00:00.000000Z")
                #expect(json.string("display.fare") == "¥1,500")
                #expect(json["fare.amount_minor"] as? Int == 1500)
                return id
            }
            try await client.execute(uri: "/v1/riders/7/trips", method: .get, headers: rider) { response in
                #expect(response.json().tripIDs == [id])
            }
        }
    }

    @Test(
        arguments: [
            ("pickup.lat", 90.5, "pickup.lat"), ("dropoff.lon", -181.0, "dropoff.lon"),
            ("fare.currency", "ZZZ", "fare.currency"), ("fare.amount_minor", -1, "fare.amount_minor"),
            ("started_at", "2026-03-01T08:59:00+09:00", "started_at"),
            ("completed_at", "2026-03-01T09:03:00+09:00", "completed_at"),
            ("status", "in_progress", "status"), ("time_zone", "Tokyo", "time_zone"), ("rider_id", "0", "rider_id"),
            ("requested_at", "2026-03-01T09:00:00", "requested_at"), ("distance_m", -3, "distance_m"),
        ] as [(String, any Sendable, String)])
    func invalidValuesGet422NamingTheField(path: String, value: any Sendable, field: String) async throws {
        let repository = InMemoryTripRepository()
        let api = await TestAPI(repository: repository)
        let headers = try await api.recordHeaders()
        try await api.test { client in
            try await client.execute(uri: "/v1/trips", method: .post, headers: headers, body: Self.body([path: value]))
            { response in
                #expect(response.status == .unprocessableContent)
                let json = response.json()
                #expect(json.string("code") == "invalid_parameter")
                #expect(json.string("param") == field)
            }
        }
        #expect(repository.allTrips.isEmpty)
    }

    /// A trip requested years away from now would create a partition of its year: any year beyond the
    /// horizon (10 years by default) is a 422 naming `requested_at`, and nothing is stored.
    @Test(arguments: ["3000-03-01T09:00:00Z", "1990-03-01T09:00:00Z"])
    func aTripRequestedBeyondTheHorizonGets422NamingRequestedAt(time: String) async throws {
        let repository = InMemoryTripRepository()
        let api = await TestAPI(repository: repository)
        let headers = try await api.recordHeaders()
        let body = Self.body(["requested_at": time, "started_at": time, "completed_at": time])
        try await api.test { client in
            try await client.execute(uri: "/v1/trips", method: .post, headers: headers, body: body) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.json().string("param") == "requested_at")
                #expect(response.json().string("detail")?.contains("10 years") == true)
            }
        }
        #expect(repository.allTrips.isEmpty)
    }

    @Test func malformedBodiesGet400OrTheRightStatus() async throws {
        let api = await TestAPI(repository: InMemoryTripRepository())
        let headers = try await api.recordHeaders()
        let huge = ByteBuffer(string: "{\"product\": \"" + String(repeating: "x", count: 70_000) + "\"}")
        let cases: [(HTTPFields, ByteBuffer, HTTPResponse.Status, String?)] = [
            (headers, ByteBuffer(string: "{not json"), .badRequest, "body"),
            (headers, ByteBuffer(string: "[]"), .badRequest, "body"),
            (headers, Self.body(["pickup.lat": nil]), .badRequest, "pickup.lat"),
            (headers, Self.body(["distance_m": "far"]), .badRequest, "distance_m"),
            (headers, Self.body(["fare": nil]), .badRequest, "fare"),
            (headers, huge, .contentTooLarge, nil),
            (headers.merging([.contentType: "text/plain"]), Self.body(), .unsupportedMediaType, "Content-Type"),
        ]
        try await api.test { client in
            for (headers, body, status, param) in cases {
                try await client.execute(uri: "/v1/trips", method: .post, headers: headers, body: body) { response in
                    #expect(response.status == status)
                    #expect(response.headers[.contentType] == "application/problem+json")
                    #expect(response.json().string("param") == param)
                }
            }
        }
    }

    @Test func idempotencyKeysReplayRejectReuseAndReportRaces() async throws {
        let repository = InMemoryTripRepository()
        let api = await TestAPI(repository: repository)
        let keyed = try await api.recordHeaders(idempotencyKey: "ride-123")
        repository.holdIdempotencyKey(scope: "ingest", key: "racing")
        let racing = try await api.recordHeaders(idempotencyKey: "racing")
        try await api.test { client in
            let first = try await client.execute(uri: "/v1/trips", method: .post, headers: keyed, body: Self.body()) {
                #expect($0.status == .created)
                return $0.json().string("id")
            }
            try await client.execute(uri: "/v1/trips", method: .post, headers: keyed, body: Self.body()) { response in
                #expect(response.status == .created)
                #expect(response.json().string("id") == first)
                #expect(response.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            }
            try await client.execute(
                uri: "/v1/trips", method: .post, headers: keyed, body: Self.body(["distance_m": 1])
            ) {
                #expect($0.status == .unprocessableContent)
                #expect($0.json().string("code") == "idempotency_key_reused")
            }
            try await client.execute(uri: "/v1/trips", method: .post, headers: racing, body: Self.body()) {
                #expect($0.status == .conflict)
                #expect($0.headers[.retryAfter] == "1")
                #expect($0.json().string("code") == "conflict")
            }
        }
        #expect(repository.allTrips.count == 1)
    }
}
