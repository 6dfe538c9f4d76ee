import Dispatch
import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Prometheus
import Testing
import TripHistoryApp
import TripHistoryCache
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryTestSupport

@testable import TripHistoryAPI
@testable import TripHistoryHTTP

/// The one component that finishes every response: what it adds to the fields and how it counts, alone; then,
/// on a real socket, that each of the three paths a response can take (the router, the early-read handler, a
/// connection guard's refusal) gets those fields from it, each exactly once.
@Suite struct ResponseFinisherTests {
    typealias API = TestAPI<InMemoryTripRepository>

    private static let origin = "https://app.example"
    private static let logger = Logger(label: "test")

    @Test func aResponseGetsTheFieldsEveryResponseCarries() throws {
        let finisher = ResponseFinisher(cors: try #require(CORSPolicy(origins: [Self.origin])))
        var headers: HTTPFields = [.contentType: "application/json"]
        finisher.finish(
            &headers, status: .ok,
            exchange: .init(route: "/v1/riders/{rider_id}/trips", requestID: "req-1", origin: Self.origin),
            logger: Self.logger)
        #expect(headers[ResponseFinisher.requestIDField] == "req-1")
        #expect(headers[.xContentTypeOptions] == "nosniff")
        #expect(headers[.accessControlAllowOrigin] == Self.origin)
        #expect(headers[.contentType] == "application/json", "what the response had stays")
        #expect(headers[.date] == nil, "the framework dates the router's responses")
        #expect(headers[.contentLength] == nil, "the framework frames the router's responses")

        var fromElsewhere: HTTPFields = [:]
        finisher.finish(&fromElsewhere, status: .ok, exchange: .init(requestID: "req-2"), logger: Self.logger)
        #expect(fromElsewhere[.accessControlAllowOrigin] == nil, "no CORS fields for an origin not granted")
        #expect(fromElsewhere[.vary] == "Origin")
    }

    @Test func aResponseWrittenPastTheFrameworkIsFramedAndDated() throws {
        var finisher = ResponseFinisher()
        let fields = RateLimitFields(
            policy: try #require(RateLimitPolicy(name: "rider", requestsPerSecond: 1, burst: 3)), remaining: 2,
            reset: 1)
        var page: HTTPFields = [.contentType: "application/json"]
        finisher.finishWritten(
            &page, status: .ok, bodyBytes: 42, exchange: .init(requestID: "req-1", rateLimit: fields),
            logger: Self.logger)
        #expect(page[.contentLength] == "42")
        let date = try #require(page[.date])
        #expect(date.hasSuffix(" GMT") && date.utf8.count == 29, "IMF-fixdate: \(date)")
        #expect(page[values: RateLimitPolicy.policyName] == [#""rider";q=3;w=3"#])
        #expect(page[values: RateLimitPolicy.stateName] == [#""rider";r=2;t=1"#])
        #expect(page[ResponseFinisher.requestIDField] == "req-1")
        #expect(page[.xContentTypeOptions] == "nosniff")

        // No body: a status that may carry one says it has none; one that cannot says nothing.
        var empty: HTTPFields = [:]
        finisher.finishWritten(
            &empty, status: .ok, bodyBytes: nil, exchange: .init(requestID: "r"), logger: Self.logger)
        #expect(empty[.contentLength] == "0")
        var notModified: HTTPFields = [:]
        finisher.finishWritten(
            &notModified, status: .notModified, bodyBytes: nil, exchange: .init(requestID: "r"), logger: Self.logger)
        #expect(notModified[.contentLength] == nil)
        #expect(notModified[.date] != nil)
    }

    @Test func aRefusalCarriesTheRateLimitFieldsOnceAsEveryResponseDoes() async throws {
        let api = await Self.api()
        let gate = try #require(api.rateLimits)
        let finisher = ResponseFinisher(rateLimits: gate)
        let rider = Caller.rider(try #require(RiderID(1)))
        var decision = try #require(finisher.rateLimitDecision(for: rider))
        for _ in 0..<2 { decision = try #require(finisher.rateLimitDecision(for: rider)) }
        #expect(!decision.admitted)
        let refusal = decision.problem.response(requestID: "req-1")
        var headers = refusal.headers
        finisher.finish(
            &headers, status: refusal.status, exchange: .init(requestID: "req-1", rateLimit: decision.fields),
            logger: Self.logger)
        #expect(headers[values: RateLimitPolicy.policyName] == [#""rider";q=2;w=2"#])
        #expect(headers[values: RateLimitPolicy.stateName] == [#""rider";r=0;t=2"#])
        #expect(headers[.retryAfter] == "1")
    }

    @Test func aResponseIsCountedUnderItsRouteOrNotFound() {
        let registry = PrometheusCollectorRegistry()
        let finisher = ResponseFinisher(metrics: RequestMetrics(factory: PrometheusMetricsFactory(registry: registry)))
        let started = DispatchTime.now().uptimeNanoseconds
        let probe = ResponseFinisher.Exchange(route: "/healthz", requestID: "r", started: started)
        finisher.record(probe, method: .get, status: .ok)
        finisher.record(probe, method: .get, status: .ok)
        finisher.record(.init(requestID: "r", started: started), method: .get, status: .notFound)
        let text = String(decoding: registry.emitToBuffer(), as: UTF8.self)
        #expect(
            text.contains(
                "hb_requests{http_route=\"/healthz\",http_request_method=\"GET\",http_response_status_code=\"200\"} 2"))
        #expect(
            text.contains(
                "hb_requests{http_route=\"NotFound\",http_request_method=\"GET\",http_response_status_code=\"404\"} 1"))
    }

    // The three paths on a real socket.

    /// Rider reads with a burst of two and anonymous requests with a burst of one, on a clock that stands
    /// still, so the third read and the second anonymous request are refused whatever the machine's speed.
    private static func api() async -> API {
        let limits = RateLimits.Configuration(
            rider: RateLimitPolicy(name: "rider", requestsPerSecond: 1, burst: 2)!,
            anonymous: RateLimitPolicy(name: "anonymous", requestsPerSecond: 1, burst: 1)!)
        return await TestAPI(
            repository: InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 5)),
            now: { 1_000_000_000_000 },
            settings: {
                $0.cache = TripResponseCache()
                $0.rateLimits = limits
                $0.cors = CORSPolicy(origins: [Self.origin])
            })
    }

    /// A response as a client receives it: its status, its fields in order (names lowercased) and its body.
    struct Received {
        let status: Int
        let fields: [(name: String, value: String)]
        let body: String

        init(_ text: String?) throws {
            let text = try #require(text, "no response")
            let end = try #require(text.range(of: "\r\n\r\n"))
            let lines = text[..<end.lowerBound].components(separatedBy: "\r\n")
            let statusLine = lines[0].split(separator: " ")
            status = try #require(Int(statusLine[1]))
            fields = lines.dropFirst().map { line in
                let parts = line.split(separator: ":", maxSplits: 1)
                return (parts[0].lowercased(), parts[1].trimmingCharacters(in: .whitespaces))
            }
            body = String(text[end.upperBound...])
        }

        func values(_ name: String) -> [String] { fields.filter { $0.name == name }.map(\.value) }
    }

    /// The fields the finisher adds, each exactly once: `Date`, `Content-Length` (the body's bytes), the request
    /// id, `nosniff`, `Vary: Origin` (CORS is on), and the rate-limit fields when the request was charged.
    private static func expectFinished(
        _ response: Received, rateLimit: (policy: String, state: String)?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let date = response.values("date")
        #expect(
            date.count == 1 && date[0].hasSuffix(" GMT") && date[0].utf8.count == 29, sourceLocation: sourceLocation)
        #expect(response.values("content-length") == [String(response.body.utf8.count)], sourceLocation: sourceLocation)
        let requestID = response.values("x-request-id")
        #expect(requestID.count == 1 && !requestID[0].isEmpty, sourceLocation: sourceLocation)
        #expect(response.values("x-content-type-options") == ["nosniff"], sourceLocation: sourceLocation)
        let vary = response.values("vary")
        #expect(vary.count == 1 && vary[0].contains("Origin"), sourceLocation: sourceLocation)
        #expect(
            response.values("ratelimit-policy") == (rateLimit.map { [$0.policy] } ?? []), sourceLocation: sourceLocation
        )
        #expect(response.values("ratelimit") == (rateLimit.map { [$0.state] } ?? []), sourceLocation: sourceLocation)
    }

    private static func get(_ target: String, token: String? = nil) -> String {
        let authorization = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
        return "GET \(target) HTTP/1.1\r\nHost: test\r\n\(authorization)\r\n"
    }

    @Test func theRoutersResponsesGetTheFinishersFields() async throws {
        let api = await Self.api()
        let answers = EarlyReadHandlerTests.Answers()
        let token = try await api.riderToken(1)
        try await api.testLive(onEarlyAnswer: answers.record) { client in
            let connection = try await RawConnection.open(port: try #require(client.port))
            // A token never verified goes to the router, which verifies it.
            try await connection.send(Self.get("/v1/riders/1/trips", token: token))
            let page = try Received(await connection.readResponse())
            #expect(page.status == 200)
            Self.expectFinished(page, rateLimit: (#""rider";q=2;w=2"#, #""rider";r=1;t=1"#))
            try await connection.send(Self.get("/openapi.yaml"))
            let document = try Received(await connection.readResponse())
            #expect(document.status == 200)
            Self.expectFinished(document, rateLimit: (#""anonymous";q=1;w=1"#, #""anonymous";r=0;t=1"#))
            try await connection.send(Self.get("/openapi.yaml"))
            let refused = try Received(await connection.readResponse())
            #expect(refused.status == 429)
            Self.expectFinished(refused, rateLimit: (#""anonymous";q=1;w=1"#, #""anonymous";r=0;t=1"#))
            // A probe is never charged.
            try await connection.send(Self.get("/readyz"))
            let probe = try Received(await connection.readResponse())
            #expect(probe.status == 200)
            Self.expectFinished(probe, rateLimit: nil)
            await connection.close()
        }
        #expect(answers.stored + answers.computed == 0, "the router answered every request")
    }

    @Test func theEarlyReadHandlersAnswersGetTheFinishersFields() async throws {
        let api = await Self.api()
        let answers = EarlyReadHandlerTests.Answers()
        let token = try await api.riderToken(1)
        try await api.testLive(onEarlyAnswer: answers.record) { client in
            let connection = try await RawConnection.open(port: try #require(client.port))
            try await connection.send(Self.get("/v1/riders/1/trips", token: token))
            #expect(try Received(await connection.readResponse()).status == 200)
            // The token is verified and the page stored: the handler answers the same read from memory.
            try await connection.send(Self.get("/v1/riders/1/trips", token: token))
            let hit = try Received(await connection.readResponse())
            #expect(hit.status == 200)
            #expect(answers.stored == 1)
            Self.expectFinished(hit, rateLimit: (#""rider";q=2;w=2"#, #""rider";r=0;t=2"#))
            try await connection.send(Self.get("/v1/riders/1/trips", token: token))
            let refused = try Received(await connection.readResponse())
            #expect(refused.status == 429)
            #expect(answers.stored == 2, "refused by the handler, not the router")
            Self.expectFinished(refused, rateLimit: (#""rider";q=2;w=2"#, #""rider";r=0;t=2"#))
            // The liveness probe is answered here too, and never charged.
            try await connection.send(Self.get("/healthz"))
            let probe = try Received(await connection.readResponse())
            #expect(probe.status == 200)
            Self.expectFinished(probe, rateLimit: nil)
            await connection.close()
        }
    }

    @Test func aConnectionGuardsRefusalGetsTheFinishersFields() async throws {
        let api = await Self.api()
        try await api.testLive(connectionLimits: ConnectionLimitTests.limits()) { client in
            let connection = try await RawConnection.open(port: try #require(client.port))
            let query = (0..<1_500).map { "p\($0)=1" }.joined(separator: "&")
            try await connection.send(Self.get("/v1/riders/1/trips?\(query)"))
            let refused = try Received(await connection.readUntilClosed())
            #expect(refused.status == 414)
            #expect(refused.values("connection") == ["close"])
            Self.expectFinished(refused, rateLimit: nil)
        }
    }
}
