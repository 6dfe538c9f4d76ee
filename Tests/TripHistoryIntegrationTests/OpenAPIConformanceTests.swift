import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOFoundationEssentialsCompat
import Synchronization
import Testing
import TripHistoryAPI
import TripHistoryApp
import TripHistoryCache
import TripHistoryData
import TripHistoryDataTestSupport
import TripHistoryDomain
import TripHistoryFakes
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

    /// Fails (never skips) without DATABASE_URL, like every test of the real database path.
    @Test func theWholeAPIConformsOnPostgreSQL() async throws {
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
        let api = await TestAPI(
            repository: repository,
            settings: {
                $0.isReady = { false }
            })
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
            try await conformance.check(
                .get, "/v1/riders/1/trips/1", .detail, headers: rider, expect: .serviceUnavailable)
            try await conformance.check(
                .post, "/v1/trips", .record, headers: service, body: OpenAPIConformanceScenario.newTrip(rider: 1),
                expect: .serviceUnavailable
            )
        }
    }

    @Test func rateLimitedAnswersAndTheirFieldsConform() async throws {
        let tight = RateLimitPolicy(name: "rider", requestsPerSecond: 0.001, burst: 2)!
        let api = await TestAPI(
            repository: InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 3)),
            settings: {
                $0.cache = TripResponseCache()
                $0.rateLimits = RateLimits.Configuration(
                    rider: tight, anonymous: RateLimitPolicy(name: "anonymous", requestsPerSecond: 0.001, burst: 1)!)
            })
        let rider = OpenAPIConformanceScenario.headers(InMemoryAPI.bearer(try await api.riderToken(1)), [:])
        let document = document
        try await api.testLive { client in
            let conformance = OpenAPIConformanceClient(document: document, client: client)
            // Counted by the router (first use of the token), then by the early-read handler (a warm hit).
            for _ in 0..<2 {
                let page = try await conformance.check(.get, "/v1/riders/1/trips", .list, headers: rider, expect: .ok)
                #expect(page.headers[RateLimitPolicy.stateName] != nil)
            }
            let refused = try await conformance.check(
                .get, "/v1/riders/1/trips", .list, headers: rider, expect: .tooManyRequests)
            #expect(refused.json().string("code") == "rate_limited")
            try await conformance.check(.get, "/v1/riders/1/trips/1", .detail, headers: rider, expect: .tooManyRequests)
            try await conformance.check(.get, "/openapi.yaml", .openAPI, expect: .ok)
            try await conformance.check(.get, "/openapi.yaml", .openAPI, expect: .tooManyRequests)
            try await conformance.check(.get, "/v1/trips/stats?\(Self.window)", .stats, expect: .tooManyRequests)
        }
    }

    // MARK: Analyst routes, over the in-memory analyst store

    typealias InMemoryAPI = TestAPI<InMemoryTripRepository>
    /// A window holding every trip of `InMemoryAnalystFixtures.mixed`.
    static let window = "from=2026-01-01&to=2026-03-05"

    /// An API over `trips` for the analyst routes, with one export slot and small export batches (so the gate
    /// can hold an export open).
    static func analystAPI(_ trips: [Trip]) async -> (InMemoryAPI, InMemoryAnalystTripRepository) {
        let analyst = InMemoryAnalystTripRepository(trips: trips)
        let api = await TestAPI(
            repository: InMemoryTripRepository(trips: trips), analystRepository: analyst,
            settings: {
                $0.maximumConcurrentExports = 1
                $0.exportBatchSize = 5
            })
        return (api, analyst)
    }

    @Test func theAnalystListPagesExportsAndStatsConform() async throws {
        let trips = InMemoryAnalystFixtures.mixed(count: 60)
        let (api, analyst) = await Self.analystAPI(trips)
        let token = OpenAPIConformanceScenario.headers(
            InMemoryAPI.bearer(try await api.analystToken()), [.acceptLanguage: "fr-FR"]
        )
        let ndjson = OpenAPIConformanceScenario.headers(token, [.accept: "application/x-ndjson"])
        let csv = OpenAPIConformanceScenario.headers(token, [.accept: "text/csv"])
        let rider = InMemoryAPI.bearer(try await api.riderToken(1))
        let service = InMemoryAPI.bearer(try await api.serviceToken())
        let window = Self.window
        let document = document
        try await api.test { client in
            let conformance = OpenAPIConformanceClient(document: document, client: client)

            // JSON pages: the first, the next, and a narrowed one.
            let first = try await conformance.check(
                .get, "/v1/trips?\(window)&limit=7", .analystList, headers: token, expect: .ok)
            #expect(first.headers[.contentType] == "application/json")
            #expect(
                document.validate(try OpenAPIValue.parseJSON(Data(buffer: first.body)), schemaNamed: "AnalystTripPage")
                    == [])
            #expect(first.json().trips.count == 7)
            #expect(first.headers[HTTPField.Name("Link")!] != nil)
            let next = try #require(first.json().string("page.next_cursor"))
            let second = try await conformance.check(
                .get, "/v1/trips?\(window)&limit=7&cursor=\(next)", .analystList, headers: token, expect: .ok
            )
            #expect(second.json().string("page.prev_cursor") != nil)
            let narrowed = try await conformance.check(
                .get, "/v1/trips?\(window)&tz=Europe/Paris&status=completed&city=Paris&product=UberX&rider_id=1",
                .analystList, headers: token, expect: .ok
            )
            #expect(narrowed.json().string("filter.rider_id") == "1")

            // NDJSON: the whole window, each line a Trip; then resumed after a line, and after a JSON page.
            let export = try await conformance.check(
                .get, "/v1/trips?\(window)", .analystList, headers: ndjson, expect: .ok)
            #expect(export.headers[.contentType] == "application/x-ndjson")
            let lines = String(buffer: export.body).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(lines.count == trips.count)
            for (index, line) in lines.enumerated() {
                let violations = document.validate(try OpenAPIValue.parseJSON(Data(line.utf8)), schemaNamed: "Trip")
                #expect(violations == [], "NDJSON line \(index + 1)")
            }
            let cut = try JSONBody(ByteBuffer(string: String(lines[9])))
            let resumeID = try #require(cut.string("id"))
            let resumeAt = try #require(cut.string("requested_at"))
            let resumed = try await conformance.check(
                .get, "/v1/trips?\(window)&resume_after=\(resumeID)&resume_requested_at=\(resumeAt)", .analystList,
                headers: ndjson, expect: .ok
            )
            #expect(String(buffer: resumed.body) == lines.dropFirst(10).map { $0 + "\n" }.joined())
            let afterPage = try await conformance.check(
                .get, "/v1/trips?\(window)&cursor=\(next)", .analystList, headers: ndjson, expect: .ok
            )
            #expect(String(buffer: afterPage.body) == lines.dropFirst(7).map { $0 + "\n" }.joined())

            // The same export by format= on the export route, and its refusals.
            let byFormat = try await conformance.check(
                .get, "/v1/trips/export?\(window)&format=ndjson", .operation("GET /v1/trips/export"), headers: token,
                expect: .ok)
            #expect(String(buffer: byFormat.body) == String(buffer: export.body))
            let csvByFormat = try await conformance.check(
                .get, "/v1/trips/export?\(window)&format=csv", .operation("GET /v1/trips/export"), headers: token,
                expect: .ok)
            #expect(csvByFormat.headers[.contentDisposition] == #"attachment; filename="trips.csv""#)
            // The raw CSV (no formula guard) holds the same records, cell for cell where nothing looks like a formula.
            let rawByFormat = try await conformance.check(
                .get, "/v1/trips/export?\(window)&format=csv_raw", .operation("GET /v1/trips/export"), headers: token,
                expect: .ok)
            #expect(rawByFormat.headers[.contentType] == "text/csv; charset=utf-8; header=present")
            #expect(parseCSV(String(buffer: rawByFormat.body)) == parseCSV(String(buffer: csvByFormat.body)))
            for (query, param) in [("", "format"), ("&format=xml", "format"), ("&format=csv&limit=5", "limit")] {
                let refused = try await conformance.check(
                    .get, "/v1/trips/export?\(window)\(query)", .operation("GET /v1/trips/export"), headers: token,
                    expect: .badRequest)
                #expect(refused.json().string("param") == param)
            }

            // CSV: its content type, disposition and header row.
            let table = try await conformance.check(
                .get, "/v1/trips?\(window)", .analystList, headers: csv, expect: .ok)
            #expect(table.headers[.contentType] == "text/csv; charset=utf-8; header=present")
            #expect(table.headers[.contentDisposition] == #"attachment; filename="trips.csv""#)
            let records = parseCSV(String(buffer: table.body))
            #expect(records.count == trips.count + 1)
            #expect(
                records.first == [
                    "id", "rider_id", "status", "product", "city", "time_zone", "requested_at", "started_at",
                    "completed_at", "pickup_lat", "pickup_lon", "pickup_address", "dropoff_lat", "dropoff_lon",
                    "dropoff_address", "distance_m", "duration_s", "fare_amount_minor", "fare_currency",
                    "fare_total_minor", "tips_minor", "refunds_minor", "version", "recorded_at", "updated_at",
                ])
            let exportedIDs = try lines.map { try JSONBody(ByteBuffer(string: String($0))).string("id") ?? "" }
            #expect(records.dropFirst().map { $0[0] } == exportedIDs)

            // Stats, in each grouping.
            for groupBy in ["day", "week", "month"] {
                let stats = try await conformance.check(
                    .get, "/v1/trips/stats?\(window)&group_by=\(groupBy)&tz=America/New_York", .stats, headers: token,
                    expect: .ok
                )
                #expect(
                    document.validate(try OpenAPIValue.parseJSON(Data(buffer: stats.body)), schemaNamed: "TripStats")
                        == [])
                #expect(stats.json().string("group_by") == groupBy)
                #expect(!(stats.json()["data"] as? [Any] ?? []).isEmpty)
            }
            let utc = try await conformance.check(
                .get, "/v1/trips/stats?\(window)&city=Paris", .stats, headers: token, expect: .ok)
            #expect(utc.json().string("tz") == "UTC")
            #expect(utc.json()["filter.tz"] is NSNull)

            // Refusals: parameters, cursors, roles, tokens, representations.
            for uri in ["/v1/trips?to=2026-03-01", "/v1/trips/stats?to=2026-03-01"] {
                let missingFrom = try await conformance.check(
                    .get, uri, uri.hasPrefix("/v1/trips/stats") ? .stats : .analystList, headers: token,
                    expect: .badRequest
                )
                #expect(missingFrom.json().string("param") == "from")
            }
            for (query, param) in [
                ("limit=1001", "limit"), ("cursor=", "cursor"), ("resume_after=5", "resume_requested_at"),
                ("resume_after=5&resume_requested_at=2026-01-05T00:00:00Z", "resume_after"),
            ] {
                let bad = try await conformance.check(
                    .get, "/v1/trips?\(window)&\(query)", .analystList, headers: token, expect: .badRequest)
                #expect(bad.json().string("param") == param, "\(query)")
            }
            let tampered = (next.first == "A" ? "B" : "A") + next.dropFirst()
            let badCursor = try await conformance.check(
                .get, "/v1/trips?\(window)&cursor=\(tampered)", .analystList, headers: token, expect: .badRequest
            )
            #expect(badCursor.json().string("code") == "invalid_cursor")
            let mismatch = try await conformance.check(
                .get, "/v1/trips?\(window)&city=Paris&cursor=\(next)", .analystList, headers: ndjson,
                expect: .badRequest
            )
            #expect(mismatch.json().string("code") == "cursor_mismatch")
            try await conformance.check(
                .get, "/v1/trips/stats?\(window)&group_by=hour", .stats, headers: token, expect: .badRequest)
            for (uri, documented) in [
                ("/v1/trips?\(window)", OpenAPIConformanceClient.Documented.analystList),
                ("/v1/trips/stats?\(window)", .stats),
            ] {
                try await conformance.check(.get, uri, documented, expect: .unauthorized)
                try await conformance.check(.get, uri, documented, headers: rider, expect: .forbidden)
                try await conformance.check(
                    .get, uri, documented, headers: OpenAPIConformanceScenario.headers(service, [.accept: "text/csv"]),
                    expect: .forbidden
                )
            }
            let notAcceptable = try await conformance.check(
                .get, "/v1/trips?\(window)", .analystList,
                headers: OpenAPIConformanceScenario.headers(token, [.accept: "text/html"]), expect: .notAcceptable
            )
            #expect(notAcceptable.json().string("code") == "not_acceptable")
            try await conformance.check(.get, "/v1/trips/stats?\(window)", .stats, headers: csv, expect: .notAcceptable)
            let wrongMethod = try await conformance.check(
                .post, "/v1/trips/stats", .methodNotAllowed, headers: token, expect: .methodNotAllowed
            )
            #expect(wrongMethod.headers[.allow] == "GET")
            let deleteTrips = try await conformance.check(
                .delete, "/v1/trips", .methodNotAllowed, expect: .methodNotAllowed)
            #expect(deleteTrips.headers[.allow] == "GET, POST")

        }
        #expect(api.exportSlots.active == 0)
        #expect(!analyst.queries.isEmpty)
    }

    @Test func aSecondConcurrentExportGets429AndFailingAnalystQueriesGet503() async throws {
        let trips = InMemoryAnalystFixtures.mixed(count: 30)
        let (api, analyst) = await Self.analystAPI(trips)
        let token = InMemoryAPI.bearer(try await api.analystToken())
        let ndjson = OpenAPIConformanceScenario.headers(token, [.accept: "application/x-ndjson"])
        let csv = OpenAPIConformanceScenario.headers(token, [.accept: "text/csv"])
        let window = Self.window
        let document = document
        analyst.closeGate()
        try await api.test { client in
            let conformance = OpenAPIConformanceClient(document: document, client: client)
            try await withThrowingTaskGroup(of: Int.self) { group in
                group.addTask {
                    try await client.execute(uri: "/v1/trips?\(window)", method: .get, headers: ndjson) { response in
                        #expect(response.status == .ok)
                        return String(buffer: response.body).split(separator: "\n").count
                    }
                }
                // The one slot's export has sent its first batch and waits for its second.
                var polls = 0
                while analyst.waitingAtGate < 1, polls < 500 {
                    try await Task.sleep(for: .milliseconds(10))
                    polls += 1
                }
                #expect(api.exportSlots.active == 1)
                let refused = try await conformance.check(
                    .get, "/v1/trips?\(window)", .analystList, headers: csv, expect: .tooManyRequests
                )
                #expect(refused.headers[.retryAfter] == "10")
                #expect(refused.json().string("code") == "rate_limited")
                analyst.openGate()
                for try await lines in group { #expect(lines == trips.count) }
            }
            // The slot is given back when the finished export's body is released.
            var polls = 0
            while api.exportSlots.active > 0, polls < 500 {
                try await Task.sleep(for: .milliseconds(10))
                polls += 1
            }

            analyst.failure.withLock { $0 = TripHistoryError.unavailable(retryAfterSeconds: 2) }
            for headers in [token, csv] {
                let unavailable = try await conformance.check(
                    .get, "/v1/trips?\(window)", .analystList, headers: headers, expect: .serviceUnavailable
                )
                #expect(unavailable.json().string("code") == "unavailable")
                #expect(unavailable.headers[.retryAfter] == "2")
            }
            analyst.failure.withLock { $0 = AnalystQueryError.timedOut }
            for (uri, documented) in [
                ("/v1/trips?\(window)", OpenAPIConformanceClient.Documented.analystList),
                ("/v1/trips/stats?\(window)", .stats),
            ] {
                let timedOut = try await conformance.check(
                    .get, uri, documented, headers: token, expect: .unprocessableContent)
                #expect(timedOut.json().string("code") == "query_timeout")
                #expect(timedOut.json()["retryable"] as? Bool == false)
            }
        }
        #expect(api.exportSlots.active == 0)
    }
}

/// One walk through every route and every answer that does not need a broken store, for any repository.
enum OpenAPIConformanceScenario {
    /// A valid `POST /v1/trips` body, a trip requested, started and completed at `requestedAt`; `changes`
    /// replaces top-level members with raw JSON text, or adds them after the others (in name order).
    static func newTrip(
        rider: Int64, requestedAt: String = "2026-03-01T09:00:00+09:00", _ changes: [String: String] = [:]
    ) -> ByteBuffer {
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
        let names = Set(members.map(\.0))
        members += changes.filter { !names.contains($0.key) }.sorted { $0.key < $1.key }
        return ByteBuffer(string: "{" + members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
    }

    /// `base` with the fields of `extra` set, replacing any of the same name.
    static func headers(_ base: HTTPFields, _ extra: HTTPFields) -> HTTPFields {
        var fields = base
        for field in extra { fields[field.name] = field.value }
        return fields
    }

    /// The receipt members of a `newTrip`: a breakdown of its 1,500 JPY, a card payment and a driver.
    static let receiptMembers = [
        "fare": #"{"amount_minor": 1500, "currency": "JPY", "breakdown": [{"kind": "base", "amount_minor": 1200}, "#
            + #"{"kind": "promotion", "amount_minor": -100}, {"kind": "taxes", "amount_minor": 400}]}"#,
        "payment": #"{"method": "card", "brand": "JCB", "last4": "0005"}"#,
        "driver": #"{"first_name": "Ren", "vehicle": {"make": "Toyota", "model": "Crown", "color": "Black", "#
            + #""plate": "品川 500 あ 12-34"}}"#,
    ]

    static func run<Repository: TripRepository>(
        api: TestAPI<Repository>, document: OpenAPIDocument, rider: Int64
    ) async throws {
        let service = headers(
            TestAPI<Repository>.bearer(try await api.serviceToken()), [.contentType: "application/json"])
        let keyed = headers(service, [HTTPField.Name("Idempotency-Key")!: "openapi-\(rider)"])
        let owner = headers(TestAPI<Repository>.bearer(try await api.riderToken(rider)), [.acceptLanguage: "en-US"])
        let stranger = TestAPI<Repository>.bearer(try await api.riderToken(rider + 1))
        let analyst = TestAPI<Repository>.bearer(try await api.analystToken())
        let list = "/v1/riders/\(rider)/trips"

        try await api.test { client in
            let conformance = OpenAPIConformanceClient(document: document, client: client)

            // Recording: 201 (fresh and replayed), then every way a POST is refused.
            let created = try await conformance.check(
                .post, "/v1/trips", .record, headers: service, body: newTrip(rider: rider), expect: .created)
            let tripID = try #require(created.json().string("id"))
            #expect(created.headers[.location] == "\(list)/\(tripID)")
            try await conformance.check(
                .post, "/v1/trips", .record, headers: service,
                body: newTrip(
                    rider: rider, requestedAt: "2026-03-02T18:00:00+09:00",
                    [
                        "status": "\"canceled\"", "completed_at": "null", "distance_m": "0", "duration_s": "0",
                    ]),
                expect: .created
            )
            let replayBody = newTrip(rider: rider, requestedAt: "2026-03-03T08:00:00+09:00")
            try await conformance.check(.post, "/v1/trips", .record, headers: keyed, body: replayBody, expect: .created)
            let replayed = try await conformance.check(
                .post, "/v1/trips", .record, headers: keyed, body: replayBody, expect: .created)
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
            try await conformance.check(
                .post, "/v1/trips", .record, headers: service, body: ByteBuffer(string: "{not json"),
                expect: .badRequest)
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

            // Listing: pages in both directions, a revalidated page, a filter, and every refusal.
            let first = try await conformance.check(.get, "\(list)?limit=1", .list, headers: owner, expect: .ok)
            let next = try #require(first.json().string("page.next_cursor"))
            #expect(first.headers[HTTPField.Name("Link")!] != nil)
            let notModified = try await conformance.checkNotModified(
                "\(list)?limit=1", .list, headers: owner, since: first)
            #expect(notModified.headers[HTTPField.Name("Link")!] == nil)
            let second = try await conformance.check(
                .get, "\(list)?limit=1&cursor=\(next)", .list, headers: owner, expect: .ok)
            #expect(second.json().string("page.prev_cursor") != nil)
            let filtered = try await conformance.check(
                .get, "\(list)?from=2026-03-01&to=2026-03-04&tz=Asia/Tokyo&status=completed", .list, headers: analyst,
                expect: .ok
            )
            #expect(filtered.json().string("filter.tz") == "Asia/Tokyo")
            #expect(filtered.json().trips.count == 2)
            let badLimit = try await conformance.check(
                .get, "\(list)?limit=0", .list, headers: owner, expect: .badRequest)
            #expect(badLimit.json().string("code") == "invalid_parameter")
            let tampered = (next.first == "A" ? "B" : "A") + next.dropFirst()
            let badCursor = try await conformance.check(
                .get, "\(list)?cursor=\(tampered)", .list, headers: owner, expect: .badRequest)
            #expect(badCursor.json().string("code") == "invalid_cursor")
            let mismatch = try await conformance.check(
                .get, "\(list)?status=canceled&cursor=\(next)", .list, headers: owner, expect: .badRequest
            )
            #expect(mismatch.json().string("code") == "cursor_mismatch")
            let unauthorized = try await conformance.check(.get, list, .list, expect: .unauthorized)
            #expect(unauthorized.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            try await conformance.check(.get, list, .list, headers: service, expect: .forbidden)
            try await conformance.check(.get, list, .list, headers: stranger, expect: .notFound)

            // One trip, and the same trip revalidated.
            let trip = try await conformance.check(
                .get, "\(list)/\(tripID)?tz=Europe/Paris", .detail, headers: owner, expect: .ok)
            try await conformance.checkNotModified(
                "\(list)/\(tripID)?tz=Europe/Paris", .detail, headers: owner, since: trip)
            try await conformance.check(.get, "\(list)/\(tripID)", .detail, headers: analyst, expect: .ok)
            try await conformance.check(.get, "\(list)/\(Int64.max)", .detail, headers: owner, expect: .notFound)
            try await conformance.check(.get, "\(list)/abc", .detail, headers: owner, expect: .badRequest)
            try await conformance.check(.get, "\(list)/\(tripID)?tz=EST", .detail, headers: owner, expect: .badRequest)
            try await conformance.check(.get, "\(list)/\(tripID)", .detail, expect: .unauthorized)
            try await conformance.check(.get, "\(list)/\(tripID)", .detail, headers: service, expect: .ok)
            let privacy = TestAPI<Repository>.bearer(try await api.privacyToken())
            try await conformance.check(.get, "\(list)/\(tripID)", .detail, headers: privacy, expect: .forbidden)

            // A receipt as JSON and as a page, each revalidated, one of a trip without breakdown, and every
            // refusal.
            let withReceipt = try await conformance.check(
                .post, "/v1/trips", .record, headers: service,
                body: newTrip(rider: rider, requestedAt: "2026-03-05T08:00:00+09:00", receiptMembers), expect: .created)
            let receiptURI = "\(list)/\(try #require(withReceipt.json().string("id")))/receipt"
            let receipt = try await conformance.check(.get, receiptURI, .receipt, headers: owner, expect: .ok)
            #expect((receipt.json()["lines"] as? [Any])?.count == 3)
            #expect(receipt.json().string("payment.label") == "JCB •••• 0005")
            try await conformance.checkNotModified(receiptURI, .receipt, headers: owner, since: receipt)
            let page = headers(owner, [.accept: "text/html", .acceptLanguage: "ja-JP"])
            let printable = try await conformance.check(.get, receiptURI, .receipt, headers: page, expect: .ok)
            #expect(printable.headers[.contentLanguage] == "ja-JP")
            try await conformance.checkNotModified(receiptURI, .receipt, headers: page, since: printable)
            try await conformance.check(
                .get, "\(list)/\(tripID)/receipt?tz=Europe/Paris", .receipt,
                headers: headers(analyst, [.acceptLanguage: "de-DE"]), expect: .ok)
            let notAcceptable = try await conformance.check(
                .get, receiptURI, .receipt, headers: headers(owner, [.accept: "application/xml"]),
                expect: .notAcceptable)
            #expect(notAcceptable.json().string("code") == "not_acceptable")
            try await conformance.check(.get, receiptURI, .receipt, headers: stranger, expect: .notFound)
            try await conformance.check(.get, "\(list)/abc/receipt", .receipt, headers: owner, expect: .badRequest)
            try await conformance.check(.get, receiptURI, .receipt, expect: .unauthorized)
            try await conformance.check(.get, receiptURI, .receipt, headers: service, expect: .ok)
            try await conformance.check(.get, receiptURI, .receipt, headers: privacy, expect: .forbidden)

            // What the router answers by itself, and the operational routes.
            try await conformance.check(.get, "/nowhere", .notFound, expect: .notFound)
            let wrongMethod = try await conformance.check(
                .delete, list, .methodNotAllowed, headers: owner, expect: .methodNotAllowed)
            #expect(wrongMethod.headers[.allow] == "GET")
            try await conformance.check(.put, "/v1/trips", .methodNotAllowed, expect: .methodNotAllowed)
            try await conformance.check(.post, "/healthz", .methodNotAllowed, expect: .methodNotAllowed)
            try await conformance.check(.get, "/healthz", .health, expect: .ok)
            try await conformance.check(.get, "/readyz", .readiness, expect: .ok)
            try await conformance.check(.get, "/openapi.yaml", .openAPI, expect: .ok)
        }
    }
}
