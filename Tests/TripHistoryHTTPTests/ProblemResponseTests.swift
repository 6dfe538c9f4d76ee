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

@Suite struct ProblemResponseTests {
    @Test func unknownRoutesAndMethodsAreProblems() async throws {
        let api = await TestAPI(repository: InMemoryTripRepository())
        try await api.test { client in
            try await client.execute(uri: "/nowhere", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(response.json().string("code") == "not_found")
            }
            try await client.execute(uri: "/v1/riders/1/trips", method: .delete) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET")
                #expect(response.json().string("code") == "method_not_allowed")
            }
            try await client.execute(uri: "/v1/trips", method: .put) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET, POST")
            }
            for path in ["/v1/trips/stats", "/readyz", "/v1/riders/1/trips"] {
                try await client.execute(uri: path, method: .trace) { response in
                    #expect(response.status == .methodNotAllowed, "TRACE \(path)")
                }
            }
            // QUERY is a method schemathesis and some clients send; a known path refuses it, never 404.
            let paths = [
                "/v1/trips", "/v1/trips/stats", "/v1/riders/1/trips", "/v1/riders/1/trips/2", "/healthz", "/readyz",
            ]
            for path in paths {
                try await client.execute(uri: path, method: HTTPRequest.Method("QUERY")!) { response in
                    #expect(response.status == .methodNotAllowed, "QUERY \(path)")
                    #expect(response.headers[.allow] != nil, "QUERY \(path)")
                }
            }
            // HEAD comes with every GET route, as HTTP requires.
            try await client.execute(uri: "/healthz", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(response.body.readableBytes == 0)
            }
        }
    }

    /// A problem describes one request at one moment, so no cache, shared or private, may keep it: a stored 401
    /// or 503 would be replayed after the token or the database recovered.
    @Test func problemsAreNeverCached() async throws {
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 2))
        let api = await TestAPI(repository: repository)
        let rider = TestAPI<InMemoryTripRepository>.bearer(try await api.riderToken(1))
        let requests: [(String, HTTPRequest.Method, HTTPFields, HTTPResponse.Status)] = [
            ("/nowhere", .get, [:], .notFound),
            ("/v1/riders/1/trips", .delete, [:], .methodNotAllowed),
            ("/v1/riders/1/trips", .get, [:], .unauthorized),
            ("/v1/riders/1/trips?limit=0", .get, rider, .badRequest),
            ("/v1/riders/2/trips/1", .get, rider, .notFound),
            ("/v1/trips/stats", .get, rider, .forbidden),
        ]
        for live in [false, true] {
            let body: @Sendable (any TestClientProtocol) async throws -> Void = { client in
                for (uri, method, headers, status) in requests {
                    try await client.execute(uri: uri, method: method, headers: headers) { response in
                        #expect(response.status == status, "\(method) \(uri)")
                        #expect(response.headers[.contentType] == "application/problem+json", "\(uri)")
                        #expect(response.headers[.cacheControl] == "no-store", "\(method) \(uri), live: \(live)")
                    }
                }
            }
            if live { try await api.testLive(body) } else { try await api.test(body) }
        }
    }

    @Test func anUnavailableStoreGives503WithRetryAfter() async throws {
        let repository = InMemoryTripRepository(trips: TripFixtures.history(count: 2))
        repository.failure.withLock { $0 = .unavailable(retryAfterSeconds: 2) }
        let api = await TestAPI(repository: repository)
        let headers = TestAPI<InMemoryTripRepository>.bearer(try await api.riderToken(1))
        try await api.test { client in
            for uri in ["/v1/riders/1/trips", "/v1/riders/1/trips/1"] {
                try await client.execute(uri: uri, method: .get, headers: headers) { response in
                    #expect(response.status == .serviceUnavailable)
                    #expect(response.headers[.retryAfter] == "2")
                    let json = response.json()
                    #expect(json.string("code") == "unavailable")
                    #expect(json["retryable"] as? Bool == true)
                }
            }
        }
    }

    @Test func requestIDsAreEchoedWhenUsableAndGeneratedOtherwise() async throws {
        let api = await TestAPI(repository: InMemoryTripRepository())
        let field = HTTPField.Name("X-Request-ID")!
        try await api.test { client in
            try await client.execute(uri: "/healthz", method: .get, headers: [field: "load-test.42_a"]) { response in
                #expect(response.headers[field] == "load-test.42_a")
            }
            try await client.execute(uri: "/nowhere", method: .get, headers: [field: "<script>"]) { response in
                let generated = try #require(response.headers[field])
                #expect(generated != "<script>" && !generated.isEmpty)
                #expect(response.json().string("request_id") == generated)
            }
        }
    }

    @Test func probesReportLivenessAndReadiness() async throws {
        let notReady = await TestAPI(
            repository: InMemoryTripRepository(),
            settings: {
                $0.isReady = { false }
            })
        try await notReady.test { client in
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/readyz", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.json().string("code") == "unavailable")
            }
            try await client.execute(uri: "/openapi.yaml", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/yaml")
            }
        }
        let ready = await TestAPI(repository: InMemoryTripRepository())
        try await ready.test { client in
            try await client.execute(uri: "/readyz", method: .get) { #expect($0.status == .ok) }
        }
        // With a read replica, its state is reported, and a reader that is down does not make the instance unready.
        for up in [true, false] {
            let withReader = await TestAPI(
                repository: InMemoryTripRepository(),
                settings: {
                    $0.isReaderUp = { up }
                })
            try await withReader.test { client in
                try await client.execute(uri: "/readyz", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.json().string("status") == "ready")
                    #expect(response.json().string("reader") == (up ? "ready" : "down"))
                }
            }
        }
        try await ready.test { client in
            try await client.execute(uri: "/readyz", method: .get) { #expect($0.json().string("reader") == nil) }
        }
    }
}
