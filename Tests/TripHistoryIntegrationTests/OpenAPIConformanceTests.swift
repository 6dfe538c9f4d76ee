import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TripHistoryData
import TripHistoryDomain
import TripHistoryHTTP
import TripHistoryTestSupport

/// The real API, answer by answer, against `openapi.yaml`: every status a client can meet on every route is
/// produced once and its status, content type, required headers and body are checked against the document.
@Suite struct OpenAPIConformanceTests {
    let document: OpenAPIDocument

    init() throws {
        document = try OpenAPIDocument.load()
    }

    @Test func theWholeAPIConformsOnTheInMemoryStore() async throws {
        let api = await TestAPI(repository: InMemoryTripRepository())
        try await OpenAPIConformanceScenario.run(api: api, document: document, rider: 7)
    }

    @Test(.enabled(if: OpenAPIConformanceScenario.hasDatabase, "needs DATABASE_URL (scripts/test sets it)"))
    func theWholeAPIConformsOnPostgreSQL() async throws {
        try await DataTestDatabase.withPool(size: 4) { pool in
            let api = await TestAPI(repository: PostgresTripRepository(pool: pool))
            try await OpenAPIConformanceScenario.run(
                api: api, document: document, rider: DataTestDatabase.randomRiderID().rawValue
            )
        }
    }

    @Test func racingTwinsAnUnavailableStoreAndAnUnreadyServiceConform() async throws {
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 3))
        repository.holdIdempotencyKey(scope: "ingest", key: "racing")
        let api = await TestAPI(repository: repository, isReady: { false })
        let service = OpenAPIConformanceScenario.headers(
            TestAPI<InMemoryTripRepository>.bearer(try await api.serviceToken()), [.contentType: "application/json"]
        )
        let racing = OpenAPIConformanceScenario.headers(service, [HTTPField.Name("Idempotency-Key")!: "racing"])
        let rider = TestAPI<InMemoryTripRepository>.bearer(try await api.riderToken(1))
        let document = document
        try await api.test { client in
            let conformance = OpenAPIConformanceClient(document: document, client: client)
            let conflict = try await conformance.check(
                .post, "/v1/trips", .record, headers: racing, body: OpenAPIConformanceScenario.newTrip(rider: 1),
                expect: .conflict
            )
            #expect(conflict.headers[.retryAfter] == "1")
            try await conformance.check(.get, "/readyz", .readiness, expect: .serviceUnavailable)

            repository.failure.withLock { $0 = .unavailable(retryAfterSeconds: 2) }
            try await conformance.check(.get, "/v1/riders/1/trips", .list, headers: rider, expect: .serviceUnavailable)
            try await conformance.check(.get, "/v1/riders/1/trips/1", .detail, headers: rider, expect: .serviceUnavailable)
            try await conformance.check(
                .post, "/v1/trips", .record, headers: service, body: OpenAPIConformanceScenario.newTrip(rider: 1),
                expect: .serviceUnavailable
            )
        }
    }
}

/// One walk through every route and every answer that does not need a broken store, for any repository.
enum OpenAPIConformanceScenario {
    static var hasDatabase: Bool { ProcessInfo.processInfo.environment["DATABASE_URL"]?.isEmpty == false }

    /// A valid `POST /v1/trips` body, a trip requested, started and completed at `requestedAt`; `changes`
    /// replaces top-level members with raw JSON text.
    static func newTrip(rider: Int64, requestedAt: String = "2026-03-01T09:00:00+09:00", _ changes: [String: String] = [:]) -> ByteBuffer {
        var members: [(String, String)] = [
            ("rider_id", "\"\(rider)\""), ("status", "\"completed\""), ("product", "\"UberX\""),
            ("city", "\"Tokyo\""), ("time_zone", "\"Asia/Tokyo\""), ("requested_at", "\"\(requestedAt)\""),
            ("started_at", "\"\(requestedAt)\""), ("completed_at", "\"\(requestedAt)\""),
            ("pickup", #"{"lat": 35.6812, "lon": 139.7671, "address": "Tokyo Station, 1 Chome Marunouchi"}"#),
            ("dropoff", #"{"lat": 35.6586, "lon": 139.7454, "address": "Tokyo Tower, 4 Chome-2-8 Shibakoen"}"#),
            ("distance_m", "5230"), ("duration_s", "1260"), ("fare", #"{"amount_minor": 1500, "currency": "JPY"}"#),
        ]
        for index in members.indices {
            if let replacement = changes[members[index].0] { members[index].1 = replacement }
        }
        return ByteBuffer(string: "{" + members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
    }

    /// `base` with the fields of `extra` set, replacing any of the same name.
    static func headers(_ base: HTTPFields, _ extra: HTTPFields) -> HTTPFields {
        var fields = base
        for field in extra { fields[field.name] = field.value }
        return fields
    }

    static func run<Repository: TripRepository>(
        api: TestAPI<Repository>, document: OpenAPIDocument, rider: Int64
    ) async throws {
        let service = headers(TestAPI<Repository>.bearer(try await api.serviceToken()), [.contentType: "application/json"])
        let keyed = headers(service, [HTTPField.Name("Idempotency-Key")!: "openapi-\(rider)"])
        let owner = headers(TestAPI<Repository>.bearer(try await api.riderToken(rider)), [.acceptLanguage: "en-US"])
        let stranger = TestAPI<Repository>.bearer(try await api.riderToken(rider + 1))
        let analyst = TestAPI<Repository>.bearer(try await api.analystToken())
        let list = "/v1/riders/\(rider)/trips"

        try await api.test { client in
            let conformance = OpenAPIConformanceClient(document: document, client: client)

            // Recording: 201 (fresh and replayed), then every way a POST is refused.
            let created = try await conformance.check(.post, "/v1/trips", .record, headers: service, body: newTrip(rider: rider), expect: .created)
            let tripID = try #require(created.json().string("id"))
            #expect(created.headers[.location] == "\(list)/\(tripID)")
            try await conformance.check(
                .post, "/v1/trips", .record, headers: service,
                body: newTrip(rider: rider, requestedAt: "2026-03-02T18:00:00+09:00", [
                    "status": "\"canceled\"", "completed_at": "null", "distance_m": "0", "duration_s": "0",
                ]),
                expect: .created
            )
            let replayBody = newTrip(rider: rider, requestedAt: "2026-03-03T08:00:00+09:00")
            try await conformance.check(.post, "/v1/trips", .record, headers: keyed, body: replayBody, expect: .created)
            let replayed = try await conformance.check(.post, "/v1/trips", .record, headers: keyed, body: replayBody, expect: .created)
            #expect(replayed.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            let reused = try await conformance.check(
                .post, "/v1/trips", .record, headers: keyed, body: newTrip(rider: rider, ["distance_m": "1"]),
                expect: .unprocessableContent
            )
            #expect(reused.json().string("code") == "idempotency_key_reused")
            let ruleBroken = try await conformance.check(
                .post, "/v1/trips", .record, headers: service,
                body: newTrip(rider: rider, ["pickup": #"{"lat": 91, "lon": 0, "address": "North of the pole"}"#]),
                expect: .unprocessableContent
            )
            #expect(ruleBroken.json().string("param") == "pickup.lat")
            try await conformance.check(
                .post, "/v1/trips", .record, headers: service, body: newTrip(rider: rider, ["distance_m": "\"far\""]),
                expect: .badRequest
            )
            try await conformance.check(.post, "/v1/trips", .record, headers: service, body: ByteBuffer(string: "{not json"), expect: .badRequest)
            try await conformance.check(
                .post, "/v1/trips", .record, headers: headers(service, [.contentType: "text/plain"]),
                body: newTrip(rider: rider), expect: .unsupportedMediaType
            )
            try await conformance.check(
                .post, "/v1/trips", .record, headers: service,
                body: ByteBuffer(string: "{\"product\": \"" + String(repeating: "x", count: 70_000) + "\"}"),
                expect: .contentTooLarge
            )
            try await conformance.check(
                .post, "/v1/trips", .record, headers: headers(owner, [.contentType: "application/json"]),
                body: newTrip(rider: rider), expect: .forbidden
            )
            try await conformance.check(.post, "/v1/trips", .record, body: newTrip(rider: rider), expect: .unauthorized)

            // Listing: pages in both directions, a filter, and every refusal.
            let first = try await conformance.check(.get, "\(list)?limit=1", .list, headers: owner, expect: .ok)
            let next = try #require(first.json().string("page.next_cursor"))
            #expect(first.headers[HTTPField.Name("Link")!] != nil)
            let second = try await conformance.check(.get, "\(list)?limit=1&cursor=\(next)", .list, headers: owner, expect: .ok)
            #expect(second.json().string("page.prev_cursor") != nil)
            let filtered = try await conformance.check(
                .get, "\(list)?from=2026-03-01&to=2026-03-04&tz=Asia/Tokyo&status=completed", .list, headers: analyst,
                expect: .ok
            )
            #expect(filtered.json().string("filter.tz") == "Asia/Tokyo")
            #expect(filtered.json().trips.count == 2)
            let badLimit = try await conformance.check(.get, "\(list)?limit=0", .list, headers: owner, expect: .badRequest)
            #expect(badLimit.json().string("code") == "invalid_parameter")
            let tampered = (next.first == "A" ? "B" : "A") + next.dropFirst()
            let badCursor = try await conformance.check(.get, "\(list)?cursor=\(tampered)", .list, headers: owner, expect: .badRequest)
            #expect(badCursor.json().string("code") == "invalid_cursor")
            let mismatch = try await conformance.check(
                .get, "\(list)?status=canceled&cursor=\(next)", .list, headers: owner, expect: .badRequest
            )
            #expect(mismatch.json().string("code") == "cursor_mismatch")
            let unauthorized = try await conformance.check(.get, list, .list, expect: .unauthorized)
            #expect(unauthorized.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            try await conformance.check(.get, list, .list, headers: service, expect: .forbidden)
            try await conformance.check(.get, list, .list, headers: stranger, expect: .notFound)

            // One trip.
            try await conformance.check(.get, "\(list)/\(tripID)?tz=Europe/Paris", .detail, headers: owner, expect: .ok)
            try await conformance.check(.get, "\(list)/\(tripID)", .detail, headers: analyst, expect: .ok)
            try await conformance.check(.get, "\(list)/\(Int64.max)", .detail, headers: owner, expect: .notFound)
            try await conformance.check(.get, "\(list)/abc", .detail, headers: owner, expect: .badRequest)
            try await conformance.check(.get, "\(list)/\(tripID)?tz=EST", .detail, headers: owner, expect: .badRequest)
            try await conformance.check(.get, "\(list)/\(tripID)", .detail, expect: .unauthorized)
            try await conformance.check(.get, "\(list)/\(tripID)", .detail, headers: service, expect: .forbidden)

            // What the router answers by itself, and the operational routes.
            try await conformance.check(.get, "/nowhere", .notFound, expect: .notFound)
            let wrongMethod = try await conformance.check(.delete, list, .methodNotAllowed, headers: owner, expect: .methodNotAllowed)
            #expect(wrongMethod.headers[.allow] == "GET")
            try await conformance.check(.put, "/v1/trips", .methodNotAllowed, expect: .methodNotAllowed)
            try await conformance.check(.post, "/healthz", .methodNotAllowed, expect: .methodNotAllowed)
            try await conformance.check(.get, "/healthz", .health, expect: .ok)
            try await conformance.check(.get, "/readyz", .readiness, expect: .ok)
            try await conformance.check(.get, "/openapi.yaml", .openAPI, expect: .ok)
        }
    }
}
