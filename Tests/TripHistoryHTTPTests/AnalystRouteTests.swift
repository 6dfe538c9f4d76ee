import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing
import TripHistoryApp
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryTestSupport

@testable import TripHistoryAPI
@testable import TripHistoryHTTP

@Suite struct AnalystRouteTests {
    typealias API = TestAPI<InMemoryTripRepository>
    static let window = "from=2026-01-01&to=2026-03-01"
    let trips = InMemoryAnalystFixtures.mixed(count: 150)

    private func api(
        maximumSpanDays: Int = 400, exports: Int = 2, batchSize: Int = 16
    ) async -> (API, InMemoryAnalystTripRepository) {
        let analyst = InMemoryAnalystTripRepository(trips: trips)
        let api = await TestAPI(
            repository: InMemoryTripRepository(trips: trips), analystRepository: analyst,
            settings: {
                $0.analystLimits = AnalystQueryLimits(maximumSpanDays: maximumSpanDays)
                $0.maximumConcurrentExports = exports
                $0.exportBatchSize = batchSize
            })
        return (api, analyst)
    }

    private func analystHeaders(
        _ api: API, accept: String? = nil, analyst: String = "analyst"
    ) async throws
        -> HTTPFields
    {
        var headers = API.bearer(try await api.analystToken(subject: analyst))
        headers[.acceptLanguage] = "fr-FR"
        if let accept { headers[.accept] = accept }
        return headers
    }

    /// Pages through the JSON API and returns the raw serialization of every trip object, in order.
    private func pagedTripObjects(
        _ client: some TestClientProtocol, query: String, headers: HTTPFields, limit: Int = 7
    ) async throws -> [String] {
        var objects: [String] = []
        var uri: String? = "/v1/trips?limit=\(limit)&\(query)"
        var pages = 0
        while let current = uri, pages < 500 {
            let body = try await client.execute(uri: current, method: .get, headers: headers) { response in
                #expect(response.status == .ok)
                return String(buffer: response.body)
            }
            objects += rawArrayElements(body, after: "{\"data\":[")
            let json = try JSONBody(ByteBuffer(string: body))
            uri = json.string("page.next_cursor").map { "/v1/trips?limit=\(limit)&\(query)&cursor=\($0)" }
            pages += 1
        }
        return objects
    }

    private func expectedIDs(_ filter: (Trip) -> Bool) -> [String] {
        let from = InMemoryAnalystFixtures.start
        let to = from.addingTimeInterval(59 * 86_400)
        return trips.filter { $0.requestedAt >= from && $0.requestedAt < to && filter($0) }
            .sorted { ($0.requestedAt, $0.id) > ($1.requestedAt, $1.id) }.map(\.id.description)
    }

    static let filterCases: [(String, @Sendable (Trip) -> Bool)] = [
        ("", { _ in true }),
        ("&status=canceled", { $0.status == .canceled }),
        ("&city=Paris", { $0.details.city == "Paris" }),
        ("&city=Tokyo%2C%20%22Shibuya%22", { $0.details.city == "Tokyo, \"Shibuya\"" }),
        ("&product=Comfort&status=completed", { $0.details.product == "Comfort" && $0.status == .completed }),
        ("&rider_id=4", { $0.riderID.rawValue == 4 }),
        (
            "&city=New%20York&product=UberX&rider_id=2",
            {
                $0.details.city == "New York" && $0.details.product == "UberX" && $0.riderID.rawValue == 2
            }
        ),
    ]

    @Test(arguments: 0..<filterCases.count)
    func pagingAndBothExportsReturnExactlyTheMatchingTrips(caseIndex: Int) async throws {
        let (query, predicate) = Self.filterCases[caseIndex]
        let (api, _) = await api()
        let expected = expectedIDs(predicate)
        #expect(!expected.isEmpty)
        let json = try await analystHeaders(api)
        let ndjson = try await analystHeaders(api, accept: "application/x-ndjson")
        let csv = try await analystHeaders(api, accept: "text/csv")
        try await api.test { client in
            let objects = try await pagedTripObjects(client, query: Self.window + query, headers: json)
            let ids = try objects.map { try JSONBody(ByteBuffer(string: $0)).string("id") ?? "" }
            #expect(ids == expected)
            // The NDJSON export is byte for byte the trip objects of the JSON pages, one per line.
            try await client.execute(uri: "/v1/trips?\(Self.window)\(query)", method: .get, headers: ndjson) {
                response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/x-ndjson")
                #expect(String(buffer: response.body) == objects.map { $0 + "\n" }.joined())
            }
            try await client.execute(uri: "/v1/trips?\(Self.window)\(query)", method: .get, headers: csv) { response in
                #expect(response.status == .ok)
                let records = parseCSV(String(buffer: response.body))
                #expect(records.first == CSVWriter.columns)
                #expect(records.dropFirst().map { $0[0] } == expected)
            }
        }
    }

    @Test func csvQuotesCommasQuotesAndLineBreaksAndEndsRecordsWithCRLF() async throws {
        let (api, _) = await api()
        let headers = try await analystHeaders(api, accept: "text/csv")
        try await api.test { client in
            try await client.execute(
                uri: "/v1/trips?\(Self.window)&rider_id=1&city=Tokyo%2C%20%22Shibuya%22", method: .get, headers: headers
            ) { response in
                #expect(response.headers[.contentType] == "text/csv; charset=utf-8; header=present")
                // Streamed: the head leaves before the durations are known.
                #expect(response.headers[ServerTimingExpectations.name] == nil)
                let text = String(buffer: response.body)
                #expect(text.hasPrefix("id,rider_id,status,product,city,time_zone,requested_at,"))
                #expect(text.contains("\"Tokyo, \"\"Shibuya\"\"\""))
                #expect(text.contains("\"12, Rue \"\"Saint\"\"\nHonoré\""))
                #expect(text.contains("\"Café \"\"Le Procope\"\"\r\n13 Rue\""))
                #expect(text.hasSuffix("\r\n"))
                let records = parseCSV(text)
                #expect(records.count > 2)
                #expect(records.allSatisfy { $0.count == CSVWriter.columns.count })
                let byID = Dictionary(uniqueKeysWithValues: trips.map { ($0.id.description, $0) })
                for record in records.dropFirst() {
                    let trip = try #require(byID[record[0]])
                    #expect(record[4] == trip.details.city)
                    #expect(record[11] == trip.details.pickup.address)
                    #expect(record[14] == trip.details.dropoff.address)
                    #expect(record[6] == RFC3339.format(trip.requestedAt))
                    #expect(record[8] == (trip.details.completedAt.map(RFC3339.format) ?? ""))
                    #expect(record[17] == String(trip.details.fare.amountMinor))
                }
            }
        }
    }

    @Test(arguments: ["ndjson", "csv"])
    func anInterruptedExportResumesAfterTheLastRowReceived(format: String) async throws {
        let (api, _) = await api()
        let headers = try await analystHeaders(api, accept: format == "csv" ? "text/csv" : "application/x-ndjson")
        try await api.test { client in
            let uri = "/v1/trips?\(Self.window)&status=completed"
            let full = try await client.execute(uri: uri, method: .get, headers: headers) { String(buffer: $0.body) }
            let separator = format == "csv" ? "\r\n" : "\n"
            let parsed: [[String]] =
                format == "csv"
                ? Array(parseCSV(full).dropFirst())
                : try full.split(separator: "\n").map { line in
                    let json = try JSONBody(ByteBuffer(string: String(line)))
                    return [json.string("id") ?? "", "", "", "", "", "", json.string("requested_at") ?? ""]
                }
            #expect(parsed.count > 40)
            for cut in [1, 17, parsed.count - 1] {
                let last = parsed[cut - 1]
                let resumed = try await client.execute(
                    uri: "\(uri)&resume_after=\(last[0])&resume_requested_at=\(last[6])", method: .get, headers: headers
                ) { String(buffer: $0.body) }
                let rest =
                    format == "csv"
                    ? Array(parseCSV(resumed).dropFirst()).map { $0[0] }
                    : try resumed.split(separator: "\n").map {
                        try JSONBody(ByteBuffer(string: String($0))).string("id") ?? ""
                    }
                #expect(parsed.prefix(cut).map { $0[0] } + rest == parsed.map { $0[0] })
                if format == "ndjson" {
                    // What arrived before the cut plus the resumed body is exactly the full export.
                    let lines = full.components(separatedBy: separator)
                    #expect(lines.prefix(cut).map { $0 + separator }.joined() + resumed == full)
                }
            }
        }
    }

    @Test func aNextCursorOfTheJSONListStartsAnExportAfterThatPage() async throws {
        let (api, _) = await api()
        let json = try await analystHeaders(api)
        let ndjson = try await analystHeaders(api, accept: "application/x-ndjson")
        try await api.test { client in
            let first = try await client.execute(uri: "/v1/trips?\(Self.window)&limit=10", method: .get, headers: json)
            { $0.json() }
            let cursor = try #require(first.string("page.next_cursor"))
            let rest = try await client.execute(
                uri: "/v1/trips?\(Self.window)&cursor=\(cursor)", method: .get, headers: ndjson
            ) {
                try String(buffer: $0.body).split(separator: "\n").map {
                    try JSONBody(ByteBuffer(string: String($0))).string("id") ?? ""
                }
            }
            #expect(first.tripIDs + rest == expectedIDs { _ in true })
        }
    }

    @Test func cursorsAreTamperProofAndBoundToTheFilter() async throws {
        let (api, _) = await api()
        let headers = try await analystHeaders(api)
        try await api.test { client in
            let cursor = try await client.execute(
                uri: "/v1/trips?\(Self.window)&city=Paris&limit=5", method: .get, headers: headers
            ) {
                try #require($0.json().string("page.next_cursor"))
            }
            var tampered = Array(cursor)
            tampered[6] = tampered[6] == "A" ? "B" : "A"
            let cases: [(String, String)] = [
                ("city=Paris&cursor=\(String(tampered))", "invalid_cursor"),
                ("city=Paris&cursor=zzz", "invalid_cursor"),
                ("city=Pari&cursor=\(cursor)", "cursor_mismatch"),
                ("city=Paris&product=UberX&cursor=\(cursor)", "cursor_mismatch"),
                ("city=Paris&rider_id=1&cursor=\(cursor)", "cursor_mismatch"),
                ("cursor=\(cursor)", "cursor_mismatch"),
            ]
            for (query, code) in cases {
                try await client.execute(uri: "/v1/trips?\(Self.window)&\(query)", method: .get, headers: headers) {
                    response in
                    #expect(response.status == .badRequest, "\(query)")
                    #expect(response.json().string("code") == code, "\(query)")
                }
            }
            // A rider list's cursor cannot be replayed against the analyst list.
            let riderCursor = try await client.execute(
                uri: "/v1/riders/1/trips?limit=1", method: .get, headers: headers
            ) {
                try #require($0.json().string("page.next_cursor"))
            }
            try await client.execute(
                uri: "/v1/trips?\(Self.window)&cursor=\(riderCursor)", method: .get, headers: headers
            ) {
                #expect($0.json().string("code") == "cursor_mismatch")
            }
        }
    }

    @Test func countGivesTheWindowsTotalOnPagesAndIsRefusedOnExports() async throws {
        let (api, _) = await api()
        let headers = try await analystHeaders(api)
        let matching = trips.filter {
            // The window in UTC: 2026-01-01 and the 59 days after it.
            $0.details.city == "Paris" && $0.requestedAt >= InMemoryAnalystFixtures.start
                && $0.requestedAt < InMemoryAnalystFixtures.start.addingTimeInterval(59 * 86_400)
        }.count
        try await api.test { client in
            try await client.execute(
                uri: "/v1/trips?\(Self.window)&city=Paris&limit=3&count=exact", method: .get, headers: headers
            ) { response in
                #expect(response.status == .ok)
                let json = response.json()
                #expect(json["page.total"] as? Int == matching)
                #expect(json.string("page.total_accuracy") == "exact")
                #expect(response.headers[HTTPField.Name("Link")!]?.contains("&count=exact&cursor=") == true)
            }
            let csv = try await analystHeaders(api, accept: "text/csv")
            try await client.execute(uri: "/v1/trips?\(Self.window)&count=exact", method: .get, headers: csv) {
                response in
                #expect(response.status == .badRequest)
                #expect(response.json().string("param") == "count")
            }
        }
    }

    @Test func firstPageHasShapeLinksAndDisplayStrings() async throws {
        let (api, _) = await api()
        let headers = try await analystHeaders(api)
        try await api.test { client in
            try await client.execute(
                uri: "/v1/trips?from=2026-01-01&to=2026-03-01&tz=Europe/Paris&city=Paris&limit=3", method: .get,
                headers: headers
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentLanguage] == "fr-FR")
                #expect(response.headers[.vary] == "Authorization, Accept, Accept-Language")
                #expect(ServerTimingExpectations.isComputed(response.headers[ServerTimingExpectations.name]))
                let json = response.json()
                #expect(json.trips.count == 3)
                #expect(json["page.limit"] as? Int == 3)
                #expect(json["page.has_more"] as? Bool == true)
                #expect(json.string("filter.from") == "2025-12-31T23:00:00.000000Z")
                #expect(json.string("filter.city") == "Paris")
                #expect(json["filter.rider_id"] is NSNull)
                #expect((json.trips[0]["display"] as? [String: String])?["fare"]?.contains("€") == true)
                let next = try #require(json.string("page.next_cursor"))
                #expect(
                    response.headers[HTTPField.Name("Link")!]
                        == "</v1/trips?limit=3&from=2025-12-31T23:00:00.000000Z&to=2026-02-28T23:00:00.000000Z&tz=Europe/Paris&city=Paris&cursor=\(next)>; rel=\"next\""
                )
            }
        }
    }

    @Test func ridersAndServicesGet403AndNoTokenGets401() async throws {
        let (api, analyst) = await api()
        let rider = API.bearer(try await api.riderToken(1))
        let service = API.bearer(try await api.serviceToken())
        try await api.test { client in
            for uri in ["/v1/trips?\(Self.window)", "/v1/trips?limit=0", "/v1/trips/stats?\(Self.window)"] {
                for headers in [
                    rider, service, rider.merging([.accept: "text/csv"]),
                    service.merging([.accept: "application/x-ndjson"]),
                ] {
                    try await client.execute(uri: uri, method: .get, headers: headers) { response in
                        #expect(response.status == .forbidden, "\(uri)")
                        #expect(response.json().string("code") == "forbidden")
                    }
                }
                try await client.execute(uri: uri, method: .get) { #expect($0.status == .unauthorized) }
            }
            try await client.execute(uri: "/v1/trips/stats", method: .post, headers: rider) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET")
            }
            try await client.execute(uri: "/v1/trips", method: .delete, headers: rider) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET, POST")
            }
        }
        #expect(analyst.queries.isEmpty)
    }

    @Test(arguments: [
        ("", "from"), ("from=2026-01-01", "to"), ("to=2026-01-01", "from"), ("\(window)&limit=0", "limit"),
        ("\(window)&limit=1001", "limit"), ("\(window)&limit=x", "limit"),
        ("from=2026-01-01&to=2026-03-01T00:00:01Z", "to"),
        ("from=2026-02-01&to=2026-01-01", "from"), ("\(window)&rider_id=0", "rider_id"), ("\(window)&city=", "city"),
        ("\(window)&status=open", "status"), ("\(window)&tz=EST", "tz"), ("\(window)&city=a&city=b", "city"),
        ("\(window)&resume_after=5", "resume_requested_at"),
        ("\(window)&resume_after=x&resume_requested_at=2026-01-01T00:00:00Z", "resume_after"),
        ("\(window)&cursor=", "cursor"),
    ])
    func violatedLimitsGet400NamingTheParameter(query: String, param: String) async throws {
        let (api, analyst) = await api(maximumSpanDays: 59)
        let headers = try await analystHeaders(api)
        try await api.test { client in
            try await client.execute(uri: "/v1/trips?\(query)", method: .get, headers: headers) { response in
                #expect(response.status == .badRequest)
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(response.json().string("code") == "invalid_parameter")
                #expect(response.json().string("param") == param)
                #expect(
                    response.headers[HTTPField.Name("Link")!]
                        == #"</docs#problem-invalid_parameter>; rel="describedby""#)
            }
        }
        #expect(analyst.queries.isEmpty)
    }

    @Test func theSpanLimitIsConfigurableAndNamesTo() async throws {
        let (api, _) = await api(maximumSpanDays: 10)
        let headers = try await analystHeaders(api)
        try await api.test { client in
            try await client.execute(uri: "/v1/trips?from=2026-01-01&to=2026-01-11", method: .get, headers: headers) {
                #expect($0.status == .ok)
            }
            for uri in ["/v1/trips?from=2026-01-01&to=2026-01-12", "/v1/trips/stats?from=2026-01-01&to=2026-01-12"] {
                try await client.execute(uri: uri, method: .get, headers: headers) { response in
                    #expect(response.status == .badRequest)
                    #expect(response.json().string("param") == "to")
                    #expect(response.json().string("detail") == "to must be at most 10 days after from.")
                }
            }
        }
    }

    @Test(arguments: [
        ("text/html", "/v1/trips"), ("application/xml, text/plain;q=0.5", "/v1/trips"), ("text/csv", "/v1/trips/stats"),
        ("application/json;q=0", "/v1/trips"),
    ])
    func unsupportedAcceptGets406(accept: String, path: String) async throws {
        let (api, _) = await api()
        let headers = try await analystHeaders(api, accept: accept)
        try await api.test { client in
            try await client.execute(uri: "\(path)?\(Self.window)", method: .get, headers: headers) { response in
                #expect(response.status == .notAcceptable)
                #expect(response.json().string("code") == "not_acceptable")
            }
        }
    }

    @Test(arguments: [
        (nil, AnalystFormat.json), ("*/*", .json), ("application/*", .json), ("text/*", .csv),
        ("text/csv;q=0.5, application/x-ndjson", .ndjson), ("application/ndjson", .ndjson),
        ("application/json;q=0.9, text/csv", .csv), ("text/html, */*;q=0.1", .json),
    ])
    func acceptNegotiationPicksTheBestFormat(accept: String?, expected: AnalystFormat) throws {
        #expect(try AnalystFormat.negotiate(accept: accept, offered: [.json, .ndjson, .csv]) == expected)
    }

    @Test func aThirdConcurrentExportGets429WithRetryAfterAndSlotsComeBack() async throws {
        let (api, analyst) = await api(exports: 2, batchSize: 5)
        let headers = try await analystHeaders(api, accept: "application/x-ndjson")
        let total = expectedIDs { _ in true }.count
        analyst.closeGate()
        try await api.test { client in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for name in ["first", "second"] {
                    let headers = try await analystHeaders(api, accept: "application/x-ndjson", analyst: name)
                    group.addTask {
                        try await client.execute(uri: "/v1/trips?\(Self.window)", method: .get, headers: headers) {
                            String(buffer: $0.body).split(separator: "\n").count
                        }
                    }
                }
                // Both exports have sent their first batch and wait for their second.
                var polls = 0
                while analyst.waitingAtGate < 2, polls < 500 {
                    try await Task.sleep(for: .milliseconds(10))
                    polls += 1
                }
                #expect(api.exportSlots.active == 2)
                try await client.execute(uri: "/v1/trips?\(Self.window)", method: .get, headers: headers) { response in
                    #expect(response.status == .tooManyRequests)
                    #expect(response.headers[.retryAfter] == "10")
                    #expect(response.json().string("code") == "rate_limited")
                }
                // A JSON page is not an export and is not limited.
                try await client.execute(
                    uri: "/v1/trips?\(Self.window)", method: .get, headers: try await analystHeaders(api)
                ) {
                    #expect($0.status == .ok)
                }
                analyst.openGate()
                for try await lines in group { #expect(lines == total) }
            }
        }
        #expect(api.exportSlots.active == 0)
        try await api.test { client in
            try await client.execute(uri: "/v1/trips?\(Self.window)", method: .get, headers: headers) {
                #expect($0.status == .ok)
            }
        }
    }

    /// One analyst streams one export at a time, and runs at most two stats queries at once, so one
    /// analyst cannot take every slot; another analyst is still served.
    @Test func oneAnalystCannotTakeEverySlot() async throws {
        let (api, analyst) = await api(exports: 2, batchSize: 5)
        let first = try await analystHeaders(api, accept: "application/x-ndjson", analyst: "first")
        let second = try await analystHeaders(api, accept: "application/x-ndjson", analyst: "second")
        let total = expectedIDs { _ in true }.count
        analyst.closeGate()
        try await api.test { client in
            try await withThrowingTaskGroup(of: Int.self) { group in
                group.addTask {
                    try await client.execute(uri: "/v1/trips?\(Self.window)", method: .get, headers: first) {
                        String(buffer: $0.body).split(separator: "\n").count
                    }
                }
                var polls = 0
                while analyst.waitingAtGate < 1, polls < 500 {
                    try await Task.sleep(for: .milliseconds(10))
                    polls += 1
                }
                #expect(api.exportSlots.active == 1)
                try await client.execute(uri: "/v1/trips?\(Self.window)", method: .get, headers: first) { response in
                    #expect(response.status == .tooManyRequests)
                    #expect(response.headers[.retryAfter] == "10")
                    #expect(response.json().string("code") == "rate_limited")
                    #expect(response.json().string("detail")?.contains("your exports") == true)
                }
                // Two stats queries of the first analyst hold its stats slots at the gate; a third is refused,
                // while the second analyst's export still gets the free export slot.
                let stats = first.merging([.accept: "application/json"])
                for _ in 0..<2 {
                    group.addTask {
                        try await client.execute(uri: "/v1/trips/stats?\(Self.window)", method: .get, headers: stats) {
                            #expect($0.status == .ok)
                            return -1
                        }
                    }
                }
                polls = 0
                while analyst.waitingAtGate < 3, polls < 500 {
                    try await Task.sleep(for: .milliseconds(10))
                    polls += 1
                }
                #expect(api.statsSlots.active == 2)
                try await client.execute(uri: "/v1/trips/stats?\(Self.window)", method: .get, headers: stats) {
                    response in
                    #expect(response.status == .tooManyRequests)
                    #expect(response.headers[.retryAfter] == "1")
                    #expect(response.json().string("detail")?.contains("stats queries") == true)
                }
                group.addTask {
                    try await client.execute(uri: "/v1/trips?\(Self.window)", method: .get, headers: second) {
                        #expect($0.status == .ok)
                        return String(buffer: $0.body).split(separator: "\n").count
                    }
                }
                polls = 0
                while api.exportSlots.active < 2, polls < 500 {
                    try await Task.sleep(for: .milliseconds(10))
                    polls += 1
                }
                #expect(api.exportSlots.active == 2)
                analyst.openGate()
                for try await lines in group where lines >= 0 { #expect(lines == total) }
            }
        }
        #expect(api.exportSlots.active == 0)
        #expect(api.statsSlots.active == 0)
    }

    @Test func aStoreFailureBeforeTheFirstBatchIsAProblemAndFreesTheSlot() async throws {
        let (api, analyst) = await api()
        analyst.failure.withLock { $0 = TripHistoryError.unavailable(retryAfterSeconds: 1) }
        let headers = try await analystHeaders(api, accept: "text/csv")
        try await api.test { client in
            try await client.execute(uri: "/v1/trips?\(Self.window)", method: .get, headers: headers) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.json().string("code") == "unavailable")
            }
            analyst.failure.withLock { $0 = AnalystQueryError.timedOut }
            try await client.execute(
                uri: "/v1/trips/stats?\(Self.window)", method: .get,
                headers: headers.merging([.accept: "application/json"])
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.json().string("code") == "query_timeout")
                #expect(response.json()["retryable"] as? Bool == false)
            }
        }
        #expect(api.exportSlots.active == 0)
    }

    @Test func statsSumPerPeriodAndCurrency() async throws {
        let day = 86_400.0
        let start = InMemoryAnalystFixtures.start
        let new = [
            InMemoryAnalystFixtures.newTrip(
                rider: 1, city: "Paris", requestedAt: start.addingTimeInterval(3600), fare: 1000, distance: 100,
                duration: 600),
            InMemoryAnalystFixtures.newTrip(
                rider: 2, city: "Paris", requestedAt: start.addingTimeInterval(7200), currency: "USD", fare: 250,
                distance: 50, duration: 300),
            InMemoryAnalystFixtures.newTrip(
                rider: 3, city: "Paris", status: .canceled, requestedAt: start.addingTimeInterval(9000), fare: 500,
                distance: 0),
            InMemoryAnalystFixtures.newTrip(
                rider: 1, city: "Paris", requestedAt: start.addingTimeInterval(2 * day), fare: 700, distance: 10,
                duration: 100),
            InMemoryAnalystFixtures.newTrip(
                rider: 1, city: "Lyon", requestedAt: start.addingTimeInterval(3600), fare: 9999),
        ]
        // The first Paris trip (EUR) was tipped and partly refunded, the second (USD) tipped.
        let adjusted: [Int: AdjustmentTotals] = [
            0: AdjustmentTotals(tipsMinor: 200, refundsMinor: -300, correctionsMinor: 50),
            1: AdjustmentTotals(tipsMinor: 25, refundsMinor: 0, correctionsMinor: 0),
        ]
        let trips = new.enumerated().map {
            let requestedAt = $0.element.details.requestedAt
            return Trip(
                id: TripID(Int64($0.offset + 1))!, riderID: $0.element.riderID, details: $0.element.details,
                lifecycle: TripLifecycle(
                    version: adjusted[$0.offset] == nil ? 1 : 2, recordedAt: requestedAt, updatedAt: requestedAt,
                    totals: adjusted[$0.offset] ?? .none))
        }
        let api = await TestAPI(
            repository: InMemoryTripRepository(trips: trips),
            analystRepository: InMemoryAnalystTripRepository(trips: trips))
        let headers = API.bearer(try await api.analystToken())
        try await api.test { client in
            try await client.execute(
                uri: "/v1/trips/stats?\(Self.window)&city=Paris&group_by=day", method: .get, headers: headers
            ) { response in
                #expect(response.status == .ok)
                #expect(ServerTimingExpectations.isComputed(response.headers[ServerTimingExpectations.name]))
                let json = response.json()
                let data = json["data"] as? [[String: Any]] ?? []
                #expect(data.count == 2)
                #expect(data.first?["bucket_start"] as? String == "2026-01-01T00:00:00.000000Z")
                #expect(data.first?["trips"] as? Int == 3)
                #expect(data.first?["completed"] as? Int == 2)
                #expect(data.first?["canceled"] as? Int == 1)
                #expect(data.first?["total_fare_minor"] as? [String: Int] == ["EUR": 1500, "USD": 250])
                #expect(data.first?["total_tips_minor"] as? [String: Int] == ["EUR": 200, "USD": 25])
                #expect(data.first?["total_refunds_minor"] as? [String: Int] == ["EUR": -300, "USD": 0])
                #expect(data.last?["total_tips_minor"] as? [String: Int] == ["EUR": 0])
                #expect(data.first?["total_distance_m"] as? Int == 150)
                #expect(data.first?["mean_duration_s"] as? Double == 450)
                #expect(data.last?["bucket_start"] as? String == "2026-01-03T00:00:00.000000Z")
                #expect(json.string("group_by") == "day")
                #expect(json.string("tz") == "UTC")
            }
            try await client.execute(
                uri:
                    "/v1/trips/stats?from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z&city=Paris&group_by=month&tz=America/New_York",
                method: .get, headers: headers
            ) { response in
                let data = response.json()["data"] as? [[String: Any]] ?? []
                // 01:00Z to 02:30Z on Jan 1 are still December 31 in New York.
                #expect(
                    data.map { $0["bucket_start"] as? String } == [
                        "2025-12-01T05:00:00.000000Z", "2026-01-01T05:00:00.000000Z",
                    ])
                #expect(data.map { $0["trips"] as? Int } == [3, 1])
            }
            try await client.execute(
                uri: "/v1/trips/stats?\(Self.window)&group_by=hour", method: .get, headers: headers
            ) { response in
                #expect(response.status == .badRequest)
                #expect(response.json().string("param") == "group_by")
            }
        }
    }
}
