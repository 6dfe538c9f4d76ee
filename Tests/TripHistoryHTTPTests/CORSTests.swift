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
import TripHistoryFakes
import TripHistoryHTTP
import TripHistoryTestSupport

/// Cross-origin access: configured origins get a preflight answer and the CORS fields on every response,
/// whichever path answers it (the early-read handler, warm or computed, or the router); other origins, and
/// every origin when none is configured, get none.
@Suite struct CORSTests {
    typealias API = TestAPI<InMemoryTripRepository>

    static let app = "https://app.example.com"
    static let policy = CORSPolicy(origins: [app, "http://localhost:5173"])!
    static let origin = HTTPField.Name("Origin")!
    static let allowOrigin = HTTPField.Name("Access-Control-Allow-Origin")!
    static let exposeHeaders = HTTPField.Name("Access-Control-Expose-Headers")!
    static let allowMethods = HTTPField.Name("Access-Control-Allow-Methods")!
    static let allowHeaders = HTTPField.Name("Access-Control-Allow-Headers")!
    static let maxAge = HTTPField.Name("Access-Control-Max-Age")!
    static let requestMethod = HTTPField.Name("Access-Control-Request-Method")!
    static let requestID = HTTPField.Name("X-Request-ID")!

    /// Which path answered a request.
    enum Path: Equatable {
        case router, computedEarly, storedEarly
    }

    /// Records how the early-read handler answered: from memory, or computed.
    final class Answers: Sendable {
        private let last = Mutex<Path?>(nil)
        @Sendable func record(_ answer: EarlyAnswer) {
            last.withLock {
                switch answer {
                case .stored: $0 = .storedEarly
                case .computed: $0 = .computedEarly
                }
            }
        }

        /// Sends a GET and says which path answered it.
        func get(
            _ client: any TestClientProtocol, _ uri: String, headers: HTTPFields
        ) async throws -> (
            TestResponse, Path
        ) {
            last.withLock { $0 = nil }
            let response = try await client.execute(uri: uri, method: .get, headers: headers) { $0 }
            return (response, last.withLock { $0 } ?? .router)
        }
    }

    static func api(cors: CORSPolicy?) async -> API {
        await TestAPI(
            repository: InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 12)),
            settings: {
                $0.cache = TripResponseCache()
                $0.cors = cors
            })
    }

    static func headers(_ token: String?, origin: String?) -> HTTPFields {
        var headers: HTTPFields = token.map { API.bearer($0) } ?? [:]
        if let origin { headers[Self.origin] = origin }
        return headers
    }

    /// The names an `Access-Control-*` list holds.
    static func names(_ value: String?) -> Set<String> {
        Set((value ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
    }

    static func expectGranted(_ response: TestResponse, to origin: String, _ label: String) {
        #expect(response.headers[allowOrigin] == origin, "\(label)")
        #expect(response.headers[.vary]?.hasSuffix("Origin") == true, "\(label)")
        let exposed = names(response.headers[exposeHeaders])
        for header in ["etag", "link", "retry-after", "ratelimit", "ratelimit-policy", "x-request-id", "location"] {
            #expect(exposed.contains(header), "\(label) exposes \(header)")
        }
    }

    static func expectNoCORSFields(_ response: TestResponse, _ label: String) {
        let cors = response.headers.filter { $0.name.canonicalName.hasPrefix("access-control-") }
        #expect(cors.isEmpty, "\(label): \(cors)")
    }

    @Test func aPreflightFromAConfiguredOriginIsAnswered() async throws {
        let api = await Self.api(cors: Self.policy)
        try await api.test { client in
            for path in ["/v1/riders/1/trips", "/v1/trips"] {
                var headers = Self.headers(nil, origin: Self.app)
                headers[Self.requestMethod] = path == "/v1/trips" ? "POST" : "GET"
                headers[HTTPField.Name("Access-Control-Request-Headers")!] = "authorization, idempotency-key"
                let response = try await client.execute(uri: path, method: .options, headers: headers) { $0 }
                #expect(response.status == .noContent, "\(path)")
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[Self.allowOrigin] == Self.app)
                #expect(response.headers[.vary] == "Origin")
                // Every method the API serves, erasure's DELETE included, and every header it reads, the
                // adjustments' If-Match included.
                #expect(Self.names(response.headers[Self.allowMethods]) == ["get", "head", "post", "delete"])
                #expect(
                    Self.names(response.headers[Self.allowHeaders]).isSuperset(of: [
                        "authorization", "content-type", "idempotency-key", "if-none-match", "if-match",
                        "accept-language", "x-request-id", "traceparent", "tracestate",
                    ]))
                #expect(response.headers[Self.maxAge] == "600")
                #expect(response.headers[Self.requestID] != nil)
            }
        }
    }

    @Test(arguments: [true, false])
    func anOptionsRequestOtherwiseIsRefusedAsBefore(configured: Bool) async throws {
        let api = await Self.api(cors: configured ? Self.policy : nil)
        try await api.test { client in
            let cases: [(String, HTTPFields)] = [
                ("another origin", [Self.origin: "https://evil.example.com", Self.requestMethod: "GET"]),
                ("a configured origin with a path", [Self.origin: Self.app + "/", Self.requestMethod: "GET"]),
                ("no Access-Control-Request-Method", [Self.origin: configured ? Self.app : "https://x.example"]),
            ]
            for (label, headers) in cases {
                let response = try await client.execute(uri: "/v1/riders/1/trips", method: .options, headers: headers) {
                    $0
                }
                #expect(response.status == .methodNotAllowed, "\(label)")
                #expect(response.headers[.allow] != nil, "\(label)")
                #expect(response.headers[Self.allowMethods] == nil, "\(label)")
                if label != "no Access-Control-Request-Method" || !configured {
                    Self.expectNoCORSFields(response, label)
                }
            }
        }
    }

    /// The rider's own reads on a real socket: the router's answer, then a miss the early-read handler
    /// computes and a warm hit it answers from memory; each carries the origin's fields (the router's), as do
    /// a 304, a problem and an analyst read, and each conforms to `openapi.yaml`.
    @Test func everyPathAddsTheFieldsForAConfiguredOrigin() async throws {
        let api = await Self.api(cors: Self.policy)
        let answers = Answers()
        let token = try await api.riderToken(1)
        let analyst = try await api.analystToken()
        let document = try OpenAPIDocument.load()
        let headers = Self.headers(token, origin: Self.app)
        let byRouter = try await api.testLive(earlyReads: false) { client in
            try await client.execute(uri: "/v1/riders/1/trips?limit=3", method: .get, headers: headers) { $0 }
        }
        try await api.testLive(onEarlyAnswer: answers.record) { client in
            let (uncached, uncachedPath) = try await answers.get(client, "/v1/riders/1/trips?limit=4", headers: headers)
            #expect(uncachedPath == .computedEarly)
            #expect(uncached.status == .ok)
            Self.expectGranted(uncached, to: Self.app, "a computed early read")
            #expect(uncached.headers[.vary] == "Authorization, Accept-Language, Origin")

            let (cached, cachedPath) = try await answers.get(client, "/v1/riders/1/trips?limit=4", headers: headers)
            #expect(cachedPath == .storedEarly)
            #expect(cached.body == uncached.body)
            Self.expectGranted(cached, to: Self.app, "a warm early read")
            #expect(cached.headers[.vary] == "Authorization, Accept-Language, Origin")
            // The same fields as the router's answer, whose Vary names Origin once.
            for name in [Self.allowOrigin, Self.exposeHeaders, HTTPField.Name.vary] {
                #expect(cached.headers[name] == byRouter.headers[name], "\(name)")
            }
            for response in [uncached, cached] {
                let violations = document.validate(
                    response: 200, contentType: response.headers[.contentType], body: Data(buffer: response.body),
                    path: "/v1/riders/{rider_id}/trips", method: "GET", headers: response.headers)
                #expect(violations == [])
            }

            let notModified = try await client.execute(
                uri: "/v1/riders/1/trips?limit=4", method: .get,
                headers: Self.headers(token, origin: Self.app).merging([.ifNoneMatch: cached.headers[.eTag] ?? ""])
            ) { $0 }
            #expect(notModified.status == .notModified)
            Self.expectGranted(notModified, to: Self.app, "a 304")

            let problem = try await client.execute(
                uri: "/v1/riders/1/trips", method: .get, headers: Self.headers("forged", origin: Self.app)
            ) { $0 }
            #expect(problem.status == .unauthorized)
            Self.expectGranted(problem, to: Self.app, "a problem")

            let analystRead = try await client.execute(
                uri: "/v1/trips?from=2020-01-01&to=2020-12-01", method: .get,
                headers: Self.headers(analyst, origin: "http://localhost:5173")
            ) { $0 }
            #expect(analystRead.status == .ok)
            Self.expectGranted(analystRead, to: "http://localhost:5173", "an analyst read")
        }
        Self.expectGranted(byRouter, to: Self.app, "the router's read")
    }

    /// Another origin, or any origin when none is configured, gets no CORS field on either path.
    @Test(arguments: [true, false])
    func otherOriginsGetNoFields(configured: Bool) async throws {
        let api = await Self.api(cors: configured ? Self.policy : nil)
        let answers = Answers()
        let token = try await api.riderToken(1)
        let origin = configured ? "https://evil.example.com" : Self.app
        let headers = Self.headers(token, origin: origin)
        try await api.testLive(onEarlyAnswer: answers.record) { client in
            var responses: [TestResponse] = []
            var paths: [Path] = []
            for uri in ["/v1/riders/1/trips/5", "/v1/riders/1/trips?limit=4", "/v1/riders/1/trips?limit=4"] {
                let (response, path) = try await answers.get(client, uri, headers: headers)
                responses.append(response)
                paths.append(path)
            }
            // A new token is verified by the router; then a miss computed early, then a warm hit.
            #expect(paths == [.router, .computedEarly, .storedEarly])
            for (index, response) in responses.enumerated() {
                #expect(response.status == .ok)
                Self.expectNoCORSFields(response, "read \(index)")
                // While origins are configured every response varies by Origin, so no cache mixes them up.
                let vary = configured ? "Authorization, Accept-Language, Origin" : "Authorization, Accept-Language"
                #expect(response.headers[.vary] == vary, "read \(index)")
            }
        }
    }

    @Test func thePolicyAddsOriginToVaryOnceAndIsOffWithoutOrigins() {
        #expect(CORSPolicy(origins: []) == nil)
        var headers: HTTPFields = [.vary: "Authorization, Accept-Language"]
        Self.policy.stamp(&headers, allowedOrigin: Self.app)
        Self.policy.stamp(&headers, allowedOrigin: Self.app)
        #expect(headers[.vary] == "Authorization, Accept-Language, Origin")
        #expect(headers[Self.allowOrigin] == Self.app)
        #expect(Self.policy.allowedOrigin(of: [Self.origin: "https://APP.example.com"]) == nil)
        #expect(Self.policy.allowedOrigin(of: [Self.origin: Self.app]) == Self.app)
        #expect(Self.policy.allowedOrigin(of: [:]) == nil)
    }
}

extension HTTPFields {
    fileprivate func merging(_ other: HTTPFields) -> HTTPFields {
        var merged = self
        for field in other { merged[field.name] = field.value }
        return merged
    }
}
