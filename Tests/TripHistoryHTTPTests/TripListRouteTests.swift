import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryTestSupport

@testable import TripHistoryAPI
@testable import TripHistoryHTTP

@Suite struct TripListRouteTests {
    let history =
        TripFixtures.history(riderID: 1, count: 45, sharedTimes: 5)
        + TripFixtures.history(riderID: 2, count: 5, firstID: 1000)

    @Test func firstPageHasShapeHeadersAndDisplayStrings() async throws {
        let api = await TestAPI(repository: InMemoryTripRepository(trips: history))
        let token = try await api.riderToken(1)
        try await api.test { client in
            try await client.execute(
                uri: "/v1/riders/1/trips?limit=10", method: .get,
                headers: TestAPI<InMemoryTripRepository>.bearer(token).merging([.acceptLanguage: "en-US"])
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                #expect(response.headers[.cacheControl] == "private, no-cache")
                #expect(response.headers[.vary] == "Authorization, Accept-Language")
                #expect(response.headers[.contentLanguage] == "en-US")
                #expect(response.headers[HTTPField.Name("X-Request-ID")!]?.isEmpty == false)
                let json = response.json()
                #expect(json.trips.count == 10)
                #expect(json["page.limit"] as? Int == 10)
                #expect(json["page.has_more"] as? Bool == true)
                #expect(json["page.prev_cursor"] is NSNull)
                let next = try #require(json.string("page.next_cursor"))
                let link = try #require(response.headers[HTTPField.Name("Link")!])
                #expect(link == "</v1/riders/1/trips?limit=10&cursor=\(next)>; rel=\"next\"")
                let first = json.trips[0]
                #expect(first["id"] as? String == "45")
                #expect(first["rider_id"] as? String == "1")
                #expect((first["requested_at"] as? String)?.hasSuffix("Z") == true)
                #expect((first["fare"] as? [String: Any])?["amount_minor"] as? Int == 1834)
                let display = try #require(first["display"] as? [String: String])
                #expect(display["fare"] == "$18.34")
                #expect(display["distance"] == "3.2 mi")
                #expect(display["duration"] == "21 min")
                #expect(json["filter.from"] is NSNull && json["filter.status"] is NSNull)
            }
        }
    }

    @Test func walkingNextCursorsVisitsEveryTripOnceAndPrevCursorsWalkBack() async throws {
        let api = await TestAPI(repository: InMemoryTripRepository(trips: history))
        let headers = TestAPI<InMemoryTripRepository>.bearer(try await api.riderToken(1))
        try await api.test { client in
            var pages: [JSONBody] = []
            var uri: String? = "/v1/riders/1/trips?limit=7"
            while let current = uri {
                let json = try await client.execute(uri: current, method: .get, headers: headers) { $0.json() }
                pages.append(json)
                uri = json.string("page.next_cursor").map { "/v1/riders/1/trips?limit=7&cursor=\($0)" }
            }
            let expected = history.filter { $0.riderID.rawValue == 1 }.sorted { TripKey($0) > TripKey($1) }
            #expect(pages.flatMap(\.tripIDs) == expected.map(\.id.description))
            #expect(pages.count == 7)
            #expect(pages.last?["page.has_more"] as? Bool == false)

            var back: [[String]] = []
            var previous = pages.last?.string("page.prev_cursor")
            while let cursor = previous {
                let json = try await client.execute(
                    uri: "/v1/riders/1/trips?limit=7&cursor=\(cursor)", method: .get, headers: headers
                ) { $0.json() }
                back.append(json.tripIDs)
                previous = json.string("page.prev_cursor")
            }
            #expect(back == pages.dropLast().reversed().map(\.tripIDs))
        }
    }

    @Test func cursorsAreTamperProofAndBoundToRiderAndFilter() async throws {
        let api = await TestAPI(repository: InMemoryTripRepository(trips: history))
        let analyst = TestAPI<InMemoryTripRepository>.bearer(try await api.analystToken())
        try await api.test { client in
            let cursor = try await client.execute(
                uri: "/v1/riders/1/trips?limit=5&status=completed", method: .get, headers: analyst
            ) { try #require($0.json().string("page.next_cursor")) }
            var tampered = Array(cursor)
            tampered[5] = tampered[5] == "A" ? "B" : "A"
            let cases: [(String, String)] = [
                ("/v1/riders/1/trips?status=completed&cursor=\(String(tampered))", "invalid_cursor"),
                ("/v1/riders/1/trips?status=completed&cursor=not-a-cursor!", "invalid_cursor"),
                ("/v1/riders/1/trips?status=completed&cursor=\(cursor)=", "invalid_cursor"),
                ("/v1/riders/2/trips?status=completed&cursor=\(cursor)", "cursor_mismatch"),
                ("/v1/riders/1/trips?cursor=\(cursor)", "cursor_mismatch"),
                ("/v1/riders/1/trips?status=completed&from=2020-01-01&cursor=\(cursor)", "cursor_mismatch"),
            ]
            for (uri, code) in cases {
                try await client.execute(uri: uri, method: .get, headers: analyst) { response in
                    #expect(response.status == .badRequest, "\(uri)")
                    #expect(response.headers[.contentType] == "application/problem+json")
                    let json = response.json()
                    #expect(json.string("code") == code, "\(uri)")
                    #expect(json.string("param") == "cursor")
                }
            }
            try await client.execute(
                uri: "/v1/riders/1/trips?limit=50&status=completed&cursor=\(cursor)", method: .get, headers: analyst
            ) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test(arguments: [
        ("limit=0", "limit"), ("limit=101", "limit"), ("limit=ten", "limit"), ("limit=", "limit"),
        ("limit=1&limit=2", "limit"),
        ("from=2026-03-01T00:00:00", "from"), ("from=2026-02-30", "from"), ("to=yesterday", "to"),
        ("from=2026-03-02&to=2026-03-01", "from"), ("from=2026-03-01&to=2026-03-01", "from"),
        ("tz=Mars/Olympus_Mons", "tz"), ("tz=EST", "tz"), ("status=pending", "status"), ("cursor=", "cursor"),
        ("count=all", "count"), ("count=", "count"), ("count=exact&count=planned", "count"),
        // Found by fuzzing: instants whose UTC year leaves 0000...9999 could not be echoed in `filter`.
        ("from=9999-12-31T23:00:00-05:00", "from"), ("to=0000-01-01&tz=Europe/Paris", "to"),
    ])
    func badQueryParametersGet400NamingTheParameter(query: String, param: String) async throws {
        let api = await TestAPI(repository: InMemoryTripRepository(trips: history))
        let headers = TestAPI<InMemoryTripRepository>.bearer(try await api.riderToken(1))
        try await api.test { client in
            try await client.execute(uri: "/v1/riders/1/trips?\(query)", method: .get, headers: headers) { response in
                #expect(response.status == .badRequest)
                #expect(response.headers[.contentType] == "application/problem+json")
                let json = response.json()
                #expect(json.string("code") == "invalid_parameter")
                #expect(json.string("param") == param)
                #expect(json["status"] as? Int == 400)
                #expect(json["retryable"] as? Bool == false)
                #expect(json.string("request_id") == response.headers[HTTPField.Name("X-Request-ID")!])
                #expect(json.string("type")?.isEmpty == false && json.string("title")?.isEmpty == false)
                // The detail explains the rule without echoing what was sent.
                let value = String(
                    query.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).last ?? "")
                if value.count > 3 { #expect(json.string("detail")?.contains(value) == false) }
            }
        }
    }

    @Test func countAddsTheFiltersTotalToEveryPageAndItsLinksKeepIt() async throws {
        let api = await TestAPI(repository: InMemoryTripRepository(trips: history))
        let headers = TestAPI<InMemoryTripRepository>.bearer(try await api.riderToken(1))
        try await api.test { client in
            let completed = history.filter { $0.riderID.rawValue == 1 && $0.status == .completed }.count
            var uri: String? = "/v1/riders/1/trips?limit=20&status=completed&count=exact"
            var pages = 0
            while let current = uri {
                let json = try await client.execute(uri: current, method: .get, headers: headers) { response in
                    #expect(response.status == .ok)
                    if let next = response.json().string("page.next_cursor") {
                        #expect(
                            response.headers[HTTPField.Name("Link")!]?.contains("&count=exact&cursor=\(next)") == true)
                    }
                    return response.json()
                }
                #expect(json["page.total"] as? Int == completed)
                #expect(json.string("page.total_accuracy") == "exact")
                pages += 1
                uri = json.string("page.next_cursor").map {
                    "/v1/riders/1/trips?limit=20&status=completed&count=exact&cursor=\($0)"
                }
            }
            #expect(pages == (completed + 19) / 20)
            try await client.execute(uri: "/v1/riders/1/trips?count=planned", method: .get, headers: headers) {
                let json = $0.json()
                #expect(json.string("page.total_accuracy") == "planned")
                #expect(json["page.total"] is Int)
            }
            // Without the parameter, neither member: a page costs what it did.
            try await client.execute(uri: "/v1/riders/1/trips?limit=20", method: .get, headers: headers) {
                let page = try #require($0.json()["page"] as? [String: Any])
                #expect(page["total"] == nil && page["total_accuracy"] == nil)
            }
        }
    }

    /// A parameter the API does not define is never echoed: not in `param`, not in `detail`, not anywhere in
    /// the body, whatever its name holds.
    @Test(arguments: [
        "%3Cscript%3Ealert(1)%3C%2Fscript%3E", "%1B%5D0%3Bowned%07", String(repeating: "A", count: 4000),
    ])
    func aBrokenUnknownParameterIsRefusedWithoutEchoingItsName(name: String) async throws {
        let api = await TestAPI(repository: InMemoryTripRepository(trips: history))
        let headers = TestAPI<InMemoryTripRepository>.bearer(try await api.riderToken(1))
        let decoded = try #require(QueryParameters.decode(name[...]))
        try await api.test { client in
            try await client.execute(uri: "/v1/riders/1/trips?limit=2&\(name)=%FF", method: .get, headers: headers) {
                response in
                #expect(response.status == .badRequest)
                let json = response.json()
                #expect(json.string("code") == "invalid_parameter")
                #expect(json.string("param") == "query")
                let body = String(buffer: response.body)
                #expect(!body.contains(String(decoded)) && !body.contains(name))
                #expect(!body.contains("script") && !body.contains("owned"))
            }
        }
    }

    @Test func dateBoundsAreNormalizedToUTCAndAppliedHalfOpen() async throws {
        let trips = [
            TripFixtures.trip(id: 1, requestedAt: RFC3339.parseTimestamp("2026-03-01T04:59:59Z")!),
            TripFixtures.trip(id: 2, requestedAt: RFC3339.parseTimestamp("2026-03-01T05:00:00Z")!),
            TripFixtures.trip(id: 3, requestedAt: RFC3339.parseTimestamp("2026-03-02T04:59:59.999Z")!),
            TripFixtures.trip(id: 4, requestedAt: RFC3339.parseTimestamp("2026-03-02T05:00:00Z")!),
        ]
        let api = await TestAPI(repository: InMemoryTripRepository(trips: trips))
        let headers = TestAPI<InMemoryTripRepository>.bearer(try await api.riderToken(1))
        try await api.test { client in
            try await client.execute(
                uri: "/v1/riders/1/trips?from=2026-03-01&to=2026-03-02&tz=America/New_York", method: .get,
                headers: headers
            ) { response in
                let json = response.json()
                #expect(json.tripIDs == ["3", "2"])
                #expect(json.string("filter.from") == "2026-03-01T05:00:00.000000Z")
                #expect(json.string("filter.to") == "2026-03-02T05:00:00.000000Z")
                #expect(json.string("filter.tz") == "America/New_York")
            }
            // A `+` offset that arrived decoded as a space means the same instant.
            try await client.execute(
                uri: "/v1/riders/1/trips?from=2026-03-01T06:00:00%2001:00&to=2026-03-02T05:00:00%2B00:00",
                method: .get, headers: headers
            ) { response in
                let json = response.json()
                #expect(json.string("filter.from") == "2026-03-01T05:00:00.000000Z")
                #expect(json.tripIDs == ["3", "2"])
            }
        }
    }

    @Test func statusFilterAndEmptyResults() async throws {
        let api = await TestAPI(repository: InMemoryTripRepository(trips: history))
        let headers = TestAPI<InMemoryTripRepository>.bearer(try await api.riderToken(1))
        try await api.test { client in
            try await client.execute(
                uri: "/v1/riders/1/trips?status=canceled&limit=100", method: .get, headers: headers
            ) {
                let json = $0.json()
                #expect(!json.trips.isEmpty)
                #expect(json.trips.allSatisfy { $0["status"] as? String == "canceled" && $0["completed_at"] is NSNull })
            }
            try await client.execute(uri: "/v1/riders/1/trips?from=2030-01-01", method: .get, headers: headers) {
                let json = $0.json()
                #expect($0.status == .ok && json.trips.isEmpty)
                #expect(json["page.next_cursor"] is NSNull && json["page.has_more"] as? Bool == false)
            }
        }
    }
}
