import Foundation
import HTTPTypes
import Testing
import TripHistoryAPI
import TripHistoryHTTP
import TripHistoryTestSupport

/// `openapi.yaml` itself: it lists exactly the routes the router serves, its problem codes are the code's,
/// its own examples conform, and the checker used by the conformance tests does catch drift.
@Suite struct OpenAPIDocumentTests {
    let document: OpenAPIDocument

    init() throws {
        document = try OpenAPIDocument.load()
    }

    /// The route table (`APIOperation`) is exactly the document's operations: the same methods on the same
    /// paths, each under its `operationId` (`/metrics` is served by the metrics listener, not the API, so the
    /// document leaves it out).
    @Test func theDocumentListsExactlyTheOperationsOfTheRouteTable() {
        let table = Set(APIOperation.allCases.map { "\($0.method.rawValue) \($0.path)" })
        #expect(document.operations == table)
        for operation in APIOperation.allCases {
            let documented = document.root["paths"]?[operation.path]?[operation.method.rawValue.lowercased()]
            #expect(documented?["operationId"]?.stringValue == operation.rawValue, "\(operation)")
        }
        #expect(document.root["openapi"]?.stringValue == "3.1.0")
    }

    /// `info.version` is the version `CHANGELOG.md` (next to the document) describes last, so no change to the
    /// contract ships without its entry and its version.
    @Test func theVersionIsTheChangelogsLatest() throws {
        let changelog = try String(
            contentsOf: OpenAPIDocument.defaultURL.deletingLastPathComponent().appendingPathComponent("CHANGELOG.md"),
            encoding: .utf8)
        let latest = changelog.split(separator: "\n").first { $0.hasPrefix("## ") }
            .flatMap { $0.dropFirst(3).split(separator: " ").first }.map(String.init)
        let version = try #require(document.root["info"]?["version"]?.stringValue)
        #expect(latest == version)
        #expect(version.split(separator: ".").count == 3 && version.split(separator: ".").allSatisfy { Int($0) != nil })
    }

    @Test func theProblemCodesAreTheCodesOfProblemCode() {
        let documented =
            document.root["components"]?["schemas"]?["ProblemCode"]?["enum"]?.arrayValue?
            .compactMap(\.stringValue) ?? []
        #expect(documented.sorted() == ProblemCode.allCases.map(\.rawValue).sorted())
    }

    /// Each code is explained where its `type` and `Link` lead: `x-enum-descriptions`, one per code in the
    /// enum's order, which the reference page shows at `/docs#problem-{code}`; each names the statuses the code
    /// is sent with (or that it is deprecated).
    @Test func everyProblemCodeIsExplained() throws {
        let schema = document.root["components"]?["schemas"]?["ProblemCode"]
        let codes = schema?["enum"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let descriptions = schema?["x-enum-descriptions"]?.arrayValue?.compactMap(\.stringValue) ?? []
        try #require(descriptions.count == codes.count)
        for (code, description) in zip(codes, descriptions) {
            let leading = description.prefix { $0 != ":" && $0 != " " }
            #expect(Int(leading).map { (400...599).contains($0) } ?? (leading == "Deprecated"), "\(code)")
            #expect(description.count >= 40, "\(code)")
        }
    }

    @Test func everyResponseCarriesARequestIDAndEveryErrorIsAProblem() {
        for operation in document.operations.sorted() {
            let parts = operation.split(separator: " ").map(String.init)
            let responses = document.root["paths"]?[parts[1]]?[parts[0].lowercased()]?["responses"]?.objectValue ?? [:]
            #expect(!responses.isEmpty, "\(operation)")
            for (status, documented) in responses {
                let response = document.resolved(documented)
                let requestID = response?["headers"]?["X-Request-ID"].flatMap(document.resolved)
                #expect(requestID?["required"] == .bool(true), "\(operation) \(status) documents no X-Request-ID")
                guard let code = Int(status), code >= 400 else { continue }
                let problem = response?["content"]?["application/problem+json"]?["schema"]
                let mentionsProblem =
                    problem?["$ref"]?.stringValue == "#/components/schemas/Problem"
                    || problem?["allOf"]?.arrayValue?.first?["$ref"]?.stringValue == "#/components/schemas/Problem"
                #expect(mentionsProblem, "\(operation) \(status) is not an application/problem+json Problem")
                #expect(response?["content"]?.objectValue?.count == 1, "\(operation) \(status)")
                let link = response?["headers"]?["Link"]?["$ref"]?.stringValue
                #expect(link == "#/components/headers/Problem-Link", "\(operation) \(status) documents no Link")
            }
        }
    }

    @Test func theDocumentsOwnExamplesConform() {
        var checked = 0
        for operation in document.operations.sorted() {
            let parts = operation.split(separator: " ").map(String.init)
            guard let item = document.root["paths"]?[parts[1]]?[parts[0].lowercased()] else { continue }
            var media: [(String, OpenAPIValue)] = []
            for (type, value) in item["requestBody"]?["content"]?.objectValue ?? [:] {
                media.append(("\(operation) request \(type)", value))
            }
            for (status, response) in item["responses"]?.objectValue ?? [:] {
                for (type, value) in document.resolved(response)?["content"]?.objectValue ?? [:] {
                    media.append(("\(operation) \(status) \(type)", value))
                }
            }
            for (label, value) in media {
                guard let schema = value["schema"] else { continue }
                var examples = value["example"].map { [$0] } ?? []
                for example in (value["examples"]?.objectValue ?? [:]).values {
                    if let resolved = document.resolved(example)?["value"] { examples.append(resolved) }
                }
                for example in examples {
                    checked += 1
                    let violations = document.schemas.violations(of: example, against: schema)
                    #expect(violations.isEmpty, "\(label): \(violations)")
                }
            }
        }
        #expect(checked >= 15)
    }

    // MARK: The checker catches drift

    static let conformingTrip = #"""
        {"id": "45", "rider_id": "1", "status": "completed", "product": "UberX", "city": "New York",
         "time_zone": "America/New_York", "requested_at": "2026-03-01T19:05:00Z",
         "started_at": "2026-03-01T19:09:00.250Z", "completed_at": "2026-03-01T19:30:00.000123Z",
         "pickup": {"lat": 40.7128, "lon": -74.006, "address": "1 Centre St"},
         "dropoff": {"lat": 40.7484, "lon": -73.9857, "address": "350 5th Ave"},
         "distance_m": 5230, "duration_s": 1260, "version": 1, "recorded_at": "2026-03-01T19:31:00Z",
         "updated_at": "2026-03-01T19:31:00Z",
         "fare": {"amount_minor": 1834, "currency": "USD", "total_minor": 1834, "tips_minor": 0, "refunds_minor": 0},
         "adjustments": [],
         "display": {"title": "Trip to 350 5th Ave", "date": "Mar 1, 2026", "time": "2:05 PM", "fare": "$18.34",
                     "distance": "3.2 mi", "duration": "21 min", "status": "Completed"}}
        """#

    static let conformingHeaders: HTTPFields = [
        HTTPField.Name("X-Request-ID")!: "req-1", .cacheControl: "private, no-cache",
        .vary: "Authorization, Accept-Language", .contentLanguage: "en-US", .eTag: "\"q9Xf3V1mKc8oZ2hT0bW4Ag\"",
        HTTPField.Name("Server-Timing")!: "cache;desc=miss, db;dur=1.204, encode;dur=0.087",
    ]

    /// A detail's tag carries the trip's version.
    static var conformingDetailHeaders: HTTPFields {
        var headers = conformingHeaders
        headers[.eTag] = "\"v1.q9Xf3V1mKc8oZ2hT0bW4Ag\""
        return headers
    }

    static func trip(replacing old: String, with new: String) -> String {
        precondition(conformingTrip.contains(old), "the drift case no longer applies: \(old)")
        return conformingTrip.replacingOccurrences(of: old, with: new)
    }

    static func page(_ trip: String) -> String {
        #"{"data": [\#(trip)], "page": {"limit": 20, "has_more": false, "next_cursor": null, "prev_cursor": null}, "filter": {"from": null, "to": null, "tz": null, "status": null}}"#
    }

    func detailViolations(
        _ body: String, status: Int = 200, contentType: String? = "application/json",
        headers: HTTPFields = Self.conformingDetailHeaders
    ) -> [String] {
        document.validate(
            response: status, contentType: contentType, body: Data(body.utf8),
            path: "/v1/riders/{rider_id}/trips/{trip_id}", method: "GET", headers: headers
        )
    }

    @Test func aConformingTripAndPagePass() {
        #expect(detailViolations(Self.conformingTrip) == [])
        #expect(
            detailViolations(
                Self.conformingTrip.replacingOccurrences(
                    of: #""completed_at": "2026-03-01T19:30:00.000123Z""#, with: #""completed_at": null"#
                )) == [])
        let page = document.validate(
            response: 200, contentType: "application/json; charset=utf-8",
            body: Data(Self.page(Self.conformingTrip).utf8),
            path: "/v1/riders/{rider_id}/trips", method: "get", headers: Self.conformingHeaders
        )
        #expect(page == [])
    }

    @Test func aNotModifiedPassesWithoutABodyAndDriftIsReported() {
        func violations(_ body: String, headers: HTTPFields = Self.conformingHeaders) -> [String] {
            document.validate(
                response: 304, contentType: nil, body: Data(body.utf8), path: "/v1/riders/{rider_id}/trips",
                method: "GET", headers: headers
            )
        }
        #expect(violations("") == [])
        #expect(detailViolations("", status: 304, contentType: nil) == [])
        #expect(!violations(Self.page(Self.conformingTrip)).isEmpty, "a body on a 304")
        var noTag = Self.conformingHeaders
        noTag[.eTag] = nil
        #expect(!violations("", headers: noTag).isEmpty, "a 304 without ETag")
        var weakTag = Self.conformingHeaders
        weakTag[.eTag] = "W/\"q9Xf3V1mKc8oZ2hT0bW4Ag\""
        #expect(!detailViolations(Self.conformingTrip, headers: weakTag).isEmpty, "a weak ETag on a 200")
        var noLanguage = Self.conformingDetailHeaders
        noLanguage[.contentLanguage] = nil
        #expect(!detailViolations(Self.conformingTrip, headers: noLanguage).isEmpty, "a 200 without Content-Language")
        var badTiming = Self.conformingDetailHeaders
        badTiming[HTTPField.Name("Server-Timing")!] = "db;dur=fast"
        #expect(!detailViolations(Self.conformingTrip, headers: badTiming).isEmpty, "a malformed Server-Timing")
    }

    @Test(arguments: [
        (
            "an undocumented member",
            OpenAPIDocumentTests.trip(replacing: #""city": "New York","#, with: #""city": "New York", "driver": "Al","#)
        ),
        ("a number id", OpenAPIDocumentTests.trip(replacing: #""id": "45""#, with: #""id": 45"#)),
        ("a missing member", OpenAPIDocumentTests.trip(replacing: #""product": "UberX","#, with: "")),
        (
            "a string distance",
            OpenAPIDocumentTests.trip(replacing: #""distance_m": 5230"#, with: #""distance_m": "5230""#)
        ),
        (
            "a fractional duration",
            OpenAPIDocumentTests.trip(replacing: #""duration_s": 1260"#, with: #""duration_s": 12.5"#)
        ),
        (
            "a negative fare",
            OpenAPIDocumentTests.trip(replacing: #""amount_minor": 1834"#, with: #""amount_minor": -1"#)
        ),
        (
            "a lower-case currency",
            OpenAPIDocumentTests.trip(replacing: #""currency": "USD""#, with: #""currency": "usd""#)
        ),
        (
            "an unknown status",
            OpenAPIDocumentTests.trip(replacing: #""status": "completed""#, with: #""status": "in_progress""#)
        ),
        (
            "a local time",
            OpenAPIDocumentTests.trip(
                replacing: #""requested_at": "2026-03-01T19:05:00Z""#,
                with: #""requested_at": "2026-03-01T14:05:00-05:00""#)
        ),
        (
            "a null start",
            OpenAPIDocumentTests.trip(
                replacing: #""started_at": "2026-03-01T19:09:00.250Z""#, with: #""started_at": null"#)
        ),
        (
            "a latitude off the globe",
            OpenAPIDocumentTests.trip(replacing: #""lat": 40.7128"#, with: #""lat": 140.7128"#)
        ),
        ("a boolean for a number", OpenAPIDocumentTests.trip(replacing: #""lon": -74.006"#, with: #""lon": true"#)),
        (
            "an extra display string",
            OpenAPIDocumentTests.trip(
                replacing: #""status": "Completed"}"#, with: #""status": "Completed", "icon": "car"}"#)
        ),
        ("an array for an object", "[]"),
        ("not JSON", "<html>"),
    ])
    func aDriftedTripIsReported(_ drift: String, body: String) {
        #expect(!detailViolations(body).isEmpty, "\(drift) passed the checker")
    }

    @Test func aDriftedResponseEnvelopeIsReported() {
        let trip = Self.conformingTrip
        #expect(!detailViolations(trip, status: 418).isEmpty, "an undocumented status")
        #expect(!detailViolations(trip, contentType: "text/html").isEmpty, "an undocumented content type")
        #expect(!detailViolations(trip, contentType: nil).isEmpty, "no content type")
        var noRequestID = Self.conformingDetailHeaders
        noRequestID[HTTPField.Name("X-Request-ID")!] = nil
        #expect(!detailViolations(trip, headers: noRequestID).isEmpty, "a missing X-Request-ID")
        var publicCache = Self.conformingDetailHeaders
        publicCache[.cacheControl] = "public, max-age=60"
        #expect(!detailViolations(trip, headers: publicCache).isEmpty, "a shared-cacheable private response")

        let page = Self.page(trip).replacingOccurrences(
            of: #""has_more": false"#, with: #""has_more": false, "page_count": 1"#)
        #expect(
            !document.validate(
                response: 200, contentType: "application/json", body: Data(page.utf8),
                path: "/v1/riders/{rider_id}/trips", method: "GET"
            ).isEmpty, "an undocumented page member")
        #expect(
            !document.validate(
                response: 200, contentType: "application/json", body: Data(trip.utf8),
                path: "/v1/riders/{rider_id}/trips",
                method: "DELETE"
            ).isEmpty, "an undocumented method")
    }

    @Test func aDriftedProblemIsReported() {
        let problem =
            #"{"type": "urn:trip-history:problem:unauthorized", "title": "Unauthorized", "status": 401, "detail": "Send a token.", "code": "unauthorized", "retryable": false, "request_id": "req-1"}"#
        let headers: HTTPFields = [
            HTTPField.Name("X-Request-ID")!: "req-1", .wwwAuthenticate: #"Bearer realm="trip-history""#,
            .cacheControl: "no-store",
        ]
        func violations(
            _ body: String, status: Int = 401, contentType: String = "application/problem+json",
            headers custom: HTTPFields? = nil
        ) -> [String] {
            document.validate(
                response: status, contentType: contentType, body: Data(body.utf8), path: "/v1/riders/{rider_id}/trips",
                method: "GET", headers: custom ?? headers
            )
        }
        #expect(violations(problem) == [])
        #expect(!violations(problem, contentType: "application/json").isEmpty, "problem sent as plain JSON")
        #expect(
            !violations(problem.replacingOccurrences(of: #""code": "unauthorized""#, with: #""code": "denied""#))
                .isEmpty)
        #expect(!violations(problem.replacingOccurrences(of: #", "retryable": false"#, with: "")).isEmpty)
        #expect(!violations(problem.replacingOccurrences(of: #""status": 401"#, with: #""status": 400"#)).isEmpty)
        #expect(!violations(problem.replacingOccurrences(of: #""req-1"}"#, with: #""req-1", "stack": "x"}"#)).isEmpty)
        var noChallenge = headers
        noChallenge[.wwwAuthenticate] = nil
        #expect(!violations(problem, headers: noChallenge).isEmpty, "a 401 without WWW-Authenticate")

        let unavailable = problem.replacingOccurrences(of: "unauthorized", with: "unavailable")
            .replacingOccurrences(of: #""status": 401"#, with: #""status": 503"#)
            .replacingOccurrences(of: #""retryable": false"#, with: #""retryable": true"#)
        var retryAfter: HTTPFields = [
            HTTPField.Name("X-Request-ID")!: "req-1", .cacheControl: "no-store", .retryAfter: "2",
        ]
        #expect(violations(unavailable, status: 503, headers: retryAfter) == [])
        retryAfter[.retryAfter] = "soon"
        #expect(!violations(unavailable, status: 503, headers: retryAfter).isEmpty, "a non-numeric Retry-After")
        retryAfter[.retryAfter] = nil
        #expect(!violations(unavailable, status: 503, headers: retryAfter).isEmpty, "a 503 without Retry-After")
    }

    @Test func aDriftedAnalystResponseIsReported() {
        let headers: HTTPFields = [
            HTTPField.Name("X-Request-ID")!: "req-1", .cacheControl: "no-store",
            .vary: "Authorization, Accept, Accept-Language", .contentLanguage: "en-US",
        ]
        func list(_ body: String, _ contentType: String) -> [String] {
            document.validate(
                response: 200, contentType: contentType, body: Data(body.utf8), path: "/v1/trips", method: "GET",
                headers: headers
            )
        }
        let line = Self.conformingTrip.replacingOccurrences(of: "\n", with: " ")
        #expect(list(line + "\n" + line + "\n", "application/x-ndjson") == [])
        #expect(list("", "application/x-ndjson") == [])
        #expect(!list("[\(line)]", "application/x-ndjson").isEmpty, "a JSON array sent as NDJSON")
        #expect(!list(line, "application/x-ndjson").isEmpty, "a last line without its newline")
        let columns =
            "id,rider_id,status,product,city,time_zone,requested_at,started_at,completed_at,pickup_lat,pickup_lon,"
            + "pickup_address,dropoff_lat,dropoff_lon,dropoff_address,distance_m,duration_s,fare_amount_minor,fare_currency"
        #expect(list(columns + "\r\n", "text/csv; charset=utf-8; header=present") == [])
        #expect(list(columns + ",fare_total_minor,version\r\n", "text/csv") == [], "columns added at the end")
        #expect(!list(columns + "\n", "text/csv").isEmpty, "a header row ended by LF")
        #expect(!list("id,rider_id,status\r\n", "text/csv").isEmpty, "a header row missing columns")
        #expect(!list(columns + "\r\n", "text/plain").isEmpty, "CSV sent as text/plain")

        let stats =
            #"{"data": [{"bucket_start": "2026-01-01T00:00:00Z", "trips": 3, "completed": 2, "canceled": 1, "total_fare_minor": {"EUR": 1500}, "total_distance_m": 150, "mean_duration_s": 450.0}], "group_by": "day", "tz": "UTC", "filter": {"from": "2026-01-01T00:00:00Z", "to": "2026-03-01T00:00:00Z", "tz": null, "status": null, "city": "Paris", "product": null, "rider_id": null}}"#
        func statsViolations(_ body: String) -> [String] {
            document.validate(
                response: 200, contentType: "application/json", body: Data(body.utf8), path: "/v1/trips/stats",
                method: "GET",
                headers: [
                    HTTPField.Name("X-Request-ID")!: "req-1", .cacheControl: "private, no-cache",
                    .vary: "Authorization, Accept",
                ]
            )
        }
        #expect(statsViolations(stats) == [])
        #expect(statsViolations(stats.replacingOccurrences(of: "450.0", with: "null")) == [])
        for (drift, old, new) in [
            ("a string mean", "450.0", #""450""#), ("a fractional fare total", "1500}", "15.5}"),
            ("an undocumented bucket member", #""trips": 3"#, #""trips": 3, "riders": 2"#),
            ("an unknown grouping", #""group_by": "day""#, #""group_by": "hour""#),
            ("a null zone", #""tz": "UTC""#, #""tz": null"#),
            ("an open window", #""to": "2026-03-01T00:00:00Z""#, #""to": null"#),
        ] {
            precondition(stats.contains(old), "the drift case no longer applies: \(old)")
            #expect(
                !statsViolations(stats.replacingOccurrences(of: old, with: new)).isEmpty, "\(drift) passed the checker")
        }
    }

    // MARK: The contract can grow

    /// A trip as a later version might send it: a member this version does not list (a nested object too),
    /// a status it does not know, and members added inside `fare` and `display`.
    static let laterTrip = trip(replacing: #""status": "completed""#, with: #""status": "refunded""#)
        .replacingOccurrences(
            of: #""city": "New York","#,
            with: #""city": "New York", "surge_multiplier": 1.4, "co_rider": {"name": "Al", "rating": 4.9},"#
        )
        .replacingOccurrences(of: #""refunds_minor": 0}"#, with: #""refunds_minor": 0, "cashback_minor": 200}"#)
        .replacingOccurrences(of: #""status": "Completed"}"#, with: #""status": "Refunded", "icon": "car"}"#)

    static let laterProblem =
        #"{"type": "urn:trip-history:problem:rider_suspended", "title": "Rider suspended", "status": 403, "detail": "The rider's account is suspended.", "code": "rider_suspended", "retryable": false, "request_id": "req-1", "support_url": "https://example.com"}"#

    /// What a client reads from the document: responses admit members and open-enum values added later, so
    /// a client generated from this version survives the next one's additions.
    @Test func aClientsViewAdmitsWhatALaterVersionMayAdd() throws {
        let clientView = try OpenAPIDocument.load(closedWorld: false)
        let problemHeaders: HTTPFields = [HTTPField.Name("X-Request-ID")!: "req-1", .cacheControl: "no-store"]
        func detail(_ document: OpenAPIDocument, _ body: String) -> [String] {
            document.validate(
                response: 200, contentType: "application/json", body: Data(body.utf8),
                path: "/v1/riders/{rider_id}/trips/{trip_id}", method: "GET", headers: Self.conformingDetailHeaders)
        }
        func forbidden(_ document: OpenAPIDocument, _ body: String) -> [String] {
            document.validate(
                response: 403, contentType: "application/problem+json", body: Data(body.utf8),
                path: "/v1/riders/{rider_id}/trips", method: "GET", headers: problemHeaders)
        }
        #expect(detail(clientView, Self.laterTrip) == [])
        #expect(
            clientView.validate(
                response: 200, contentType: "application/json",
                body: Data(
                    Self.page(Self.laterTrip).replacingOccurrences(
                        of: #""has_more": false"#, with: #""has_more": false, "total": 1"#
                    ).utf8),
                path: "/v1/riders/{rider_id}/trips", method: "GET", headers: Self.conformingHeaders) == [])
        #expect(forbidden(clientView, Self.laterProblem) == [])
        // The same bodies from this service are drift: it sends only what this version documents.
        #expect(!detail(document, Self.laterTrip).isEmpty)
        #expect(!forbidden(document, Self.laterProblem).isEmpty)
        // What stays closed for clients too: types, required members, and each response's status.
        #expect(!detail(clientView, Self.trip(replacing: #""status": "completed""#, with: #""status": 3"#)).isEmpty)
        #expect(!detail(clientView, Self.trip(replacing: #""product": "UberX","#, with: "")).isEmpty)
        #expect(
            !forbidden(
                clientView, Self.laterProblem.replacingOccurrences(of: #""status": 403"#, with: #""status": 400"#)
            )
            .isEmpty)
    }

    /// No response schema is closed: `additionalProperties: false` is left to request bodies, so adding a
    /// response member is never a breaking change.
    @Test func noResponseSchemaRefusesMembers() {
        var closed: [String] = []
        var seen: Set<String> = []
        func walk(_ value: OpenAPIValue, _ path: String) {
            if let reference = value["$ref"]?.stringValue {
                guard seen.insert(reference).inserted, let target = document.schemas.resolve(reference: reference)
                else { return }
                walk(target, reference)
            }
            if value["additionalProperties"] == .bool(false) { closed.append(path) }
            for (key, child) in value.objectValue ?? [:] where key != "$ref" { walk(child, "\(path)/\(key)") }
            for (index, child) in (value.arrayValue ?? []).enumerated() { walk(child, "\(path)/\(index)") }
        }
        for operation in document.operations.sorted() {
            let parts = operation.split(separator: " ").map(String.init)
            let responses = document.root["paths"]?[parts[1]]?[parts[0].lowercased()]?["responses"]
            walk(responses ?? .null, "\(operation) responses")
        }
        walk(document.root["components"]?["responses"] ?? .null, "components.responses")
        #expect(closed == [])
        #expect(seen.contains("#/components/schemas/Trip"))
        #expect(seen.contains("#/components/schemas/Problem"))
    }

    @Test func theCheckerRefusesSchemaKeywordsItDoesNotImplement() {
        let schema = OpenAPIValue.object(["type": .string("array"), "minItems": .integer(1)])
        #expect(!document.schemas.violations(of: .array([]), against: schema).isEmpty)
    }
}
