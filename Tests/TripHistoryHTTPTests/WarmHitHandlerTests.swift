import CoreMetrics
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Prometheus
import Synchronization
import Testing
import TripHistoryCache
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryTestSupport

@testable import TripHistoryAPI
@testable import TripHistoryHTTP

/// The warm-hit handler: on a real socket it must answer a warm hit exactly as the router would, only the
/// caller's own reads, never after a write it has not seen, and hand every miss and failure to the router
/// once; on a channel its state machine must keep pipelined responses in request order.
@Suite struct WarmHitHandlerTests {
    typealias API = TestAPI<InMemoryTripRepository>

    private static let serverTiming = HTTPField.Name("Server-Timing")!
    private static let requestID = HTTPField.Name("X-Request-ID")!

    private static func cachedAPI(_ repository: InMemoryTripRepository) async -> API {
        await TestAPI(repository: repository, cache: TripResponseCache())
    }

    /// Responses counted per route and status in `registry`, which the router and the handler share.
    private static func requestCount(_ registry: PrometheusCollectorRegistry, route: String, status: Int) -> Int {
        let text = String(decoding: registry.emitToBuffer(), as: UTF8.self)
        let prefix =
            "hb_requests{http_route=\"\(route)\",http_request_method=\"GET\",http_response_status_code=\"\(status)\"} "
        return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count)) }
            ?? 0
    }

    private static func headers(_ token: String, _ extra: HTTPFields = [:]) -> HTTPFields {
        var headers = API.bearer(token)
        headers.append(contentsOf: extra)
        return headers
    }

    /// Every header but the two that differ per response by design.
    private static func comparable(_ fields: HTTPFields) -> [String] {
        fields.filter { $0.name != .date && $0.name != requestID }.map { "\($0.name.canonicalName): \($0.value)" }
    }

    /// Counts the responses the handler answered.
    final class Hits: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        @Sendable func record() { count.withLock { $0 += 1 } }
    }

    @Test func aWarmHitIsAnsweredExactlyAsTheRouterAnswersIt() async throws {
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 30))
        let api = await Self.cachedAPI(repository)
        let registry = PrometheusCollectorRegistry()
        let hits = Hits()
        let token = try await api.riderToken(1)
        let reads = [
            ("/v1/riders/1/trips?limit=7", RiderReadPath.listRoute),
            ("/v1/riders/1/trips/3", RiderReadPath.detailRoute),
            ("/v1/riders/1/trips?limit=5&tz=Asia/Tokyo", RiderReadPath.listRoute),
        ]
        let french = Self.headers(token, [.acceptLanguage: "fr-FR"])
        // Without the handler: the first read computes, the second is the router's answer from the warm cache.
        let byRouter = try await api.testLive(warmHits: false) { client in
            var answers: [TestResponse] = []
            for (uri, _) in reads {
                try await client.execute(uri: uri, method: .get, headers: french) { #expect($0.status == .ok) }
                answers.append(try await client.execute(uri: uri, method: .get, headers: french) { $0 })
            }
            return answers
        }
        // The same cache behind the handler: the same reads are answered on the event loop.
        try await api.testLive(metrics: PrometheusMetricsFactory(registry: registry), onWarmHit: hits.record) {
            client in
            for ((uri, route), byRouter) in zip(reads, byRouter) {
                #expect(byRouter.headers[Self.serverTiming] == "cache;desc=hit")
                let queries = repository.queryCount
                let (before, hitsBefore) = (Self.requestCount(registry, route: route, status: 200), hits.value)
                let byHandler = try await client.execute(
                    uri: uri, method: .get,
                    headers: Self.headers(token, [.acceptLanguage: "fr-FR", Self.requestID: "trace-7"])
                ) { $0 }
                #expect(hits.value == hitsBefore + 1, "\(uri)")
                #expect(Self.requestCount(registry, route: route, status: 200) == before + 1, "\(uri)")
                #expect(repository.queryCount == queries)
                #expect(byHandler.status == .ok)
                #expect(byHandler.headers[.contentLanguage] == "fr-FR")
                #expect(byHandler.body == byRouter.body)
                #expect(Self.comparable(byHandler.headers) == Self.comparable(byRouter.headers))
                #expect(byHandler.headers[.contentLength] == String(byHandler.body.readableBytes))
                #expect(byHandler.headers[Self.requestID] == "trace-7")
                #expect(byHandler.headers[.xContentTypeOptions] == "nosniff")
                #expect(byHandler.headers[.date]?.hasSuffix(" GMT") == true)

                let tag = try #require(byHandler.headers[.eTag])
                let notModified = try await client.execute(
                    uri: uri, method: .get, headers: Self.headers(token, [.acceptLanguage: "fr-FR", .ifNoneMatch: tag])
                ) { $0 }
                #expect(notModified.status == .notModified)
                #expect(notModified.body.readableBytes == 0)
                #expect(notModified.headers[.eTag] == tag)
                #expect(notModified.headers[.contentType] == nil)
                #expect(notModified.headers[Self.requestID] != nil)
            }
            #expect(hits.value == 6)
            #expect(Self.requestCount(registry, route: RiderReadPath.listRoute, status: 304) == 2)
            #expect(Self.requestCount(registry, route: RiderReadPath.detailRoute, status: 304) == 1)
        }
    }

    @Test func aMissGoesToTheRouterOnceAndIsComputedOnce() async throws {
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 12))
        let api = await Self.cachedAPI(repository)
        let registry = PrometheusCollectorRegistry()
        let hits = Hits()
        let token = try await api.riderToken(1)
        try await api.testLive(metrics: PrometheusMetricsFactory(registry: registry), onWarmHit: hits.record) {
            client in
            // Verifies the token, so the handler could answer the reads below if they were stored.
            _ = try await client.execute(uri: "/v1/riders/1/trips/2", method: .get, headers: Self.headers(token)) { $0 }
            for (index, uri) in ["/v1/riders/1/trips?limit=4", "/v1/riders/1/trips/5"].enumerated() {
                let queries = repository.queryCount
                try await client.execute(uri: uri, method: .get, headers: Self.headers(token)) {
                    #expect($0.status == .ok)
                    #expect($0.headers[Self.serverTiming]?.hasPrefix("cache;desc=miss") == true)
                }
                #expect(repository.queryCount == queries + 1, "one computation for a miss: \(uri)")
                #expect(hits.value == 0, "a miss is the router's: \(uri)")
                #expect(
                    Self.requestCount(registry, route: RiderReadPath.listRoute, status: 200)
                        + Self.requestCount(registry, route: RiderReadPath.detailRoute, status: 200) == index + 2)
            }
        }
    }

    @Test func aFailureIsComputedOnceAndAnsweredByTheRouterWithItsProblem() async throws {
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 5))
        let api = await Self.cachedAPI(repository)
        let hits = Hits()
        let token = try await api.riderToken(1)
        let other = try await api.riderToken(2)
        try await api.testLive(onWarmHit: hits.record) { client in
            for bearer in [token, other] {
                _ = try await client.execute(uri: "/v1/riders/2/trips", method: .get, headers: Self.headers(bearer)) {
                    $0
                }
            }
            // Rider 2 asking for rider 1's trip, and a trip that does not exist: the same 404 as the router's.
            for (uri, bearer) in [("/v1/riders/1/trips/3", other), ("/v1/riders/1/trips/999", token)] {
                try await client.execute(uri: uri, method: .get, headers: Self.headers(bearer)) { response in
                    #expect(response.status == .notFound, "\(uri)")
                    #expect(response.headers[.contentType] == "application/problem+json")
                    #expect(try response.json().string("code") == "not_found")
                }
            }
            // The store is down: one attempt, the router's 503 with Retry-After, then data once it is back.
            repository.failure.withLock { $0 = .unavailable(retryAfterSeconds: 2) }
            let attempts = repository.attemptCount
            try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: Self.headers(token)) {
                response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "2")
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(!String(buffer: response.body).contains("SELECT"))
            }
            #expect(repository.attemptCount == attempts + 1, "a failed read is attempted once")
            repository.failure.withLock { $0 = nil }
            try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: Self.headers(token)) {
                #expect($0.status == .ok)
                #expect($0.json().tripIDs.count == 5)
            }
            #expect(hits.value == 0)
        }
    }

    @Test func onlyTheCallersOwnWarmReadsAreAnsweredTheRestReachTheRouter() async throws {
        let trips =
            TripFixtures.history(riderID: 1, count: 4) + TripFixtures.history(riderID: 2, count: 3, firstID: 100)
        let repository = InMemoryTripRepository(trips: trips)
        let api = await Self.cachedAPI(repository)
        let hits = Hits()
        let one = try await api.riderToken(1)
        let two = try await api.riderToken(2)
        let service = try await api.serviceToken()
        try await api.testLive(onWarmHit: hits.record) { client in
            for uri in ["/v1/riders/1/trips", "/v1/riders/1/trips/2"] {
                try await client.execute(uri: uri, method: .get, headers: Self.headers(one)) {
                    #expect($0.status == .ok)
                }
            }
            #expect(hits.value == 0, "first reads are misses, answered by the router")
            // Warm entries of rider 1, asked for by others or wrongly: each gets the router's problem.
            let refused: [(String, HTTPFields, HTTPResponse.Status)] = [
                ("/v1/riders/1/trips", Self.headers(two), .notFound),
                ("/v1/riders/1/trips/2", Self.headers(two, [.ifNoneMatch: "*"]), .notFound),
                ("/v1/riders/1/trips", Self.headers(service), .forbidden),
                ("/v1/riders/1/trips", [:], .unauthorized),
                ("/v1/riders/1/trips", Self.headers(one + "x"), .unauthorized),
                ("/v1/riders/1/trips?limit=0", Self.headers(one), .badRequest),
                ("/v1/riders/1/trips?cursor=bogus", Self.headers(one), .badRequest),
                ("/v1/riders/1/trips/abc", Self.headers(one), .badRequest),
            ]
            for (uri, headers, status) in refused {
                try await client.execute(uri: uri, method: .get, headers: headers) { response in
                    #expect(response.status == status, "\(uri)")
                    #expect(response.headers[.contentType] == "application/problem+json", "\(uri)")
                }
            }
            // HEAD goes to the router too, which answers it without a body.
            try await client.execute(uri: "/v1/riders/1/trips", method: .head, headers: Self.headers(one)) {
                #expect($0.status == .ok)
                #expect($0.body.readableBytes == 0)
            }
            #expect(hits.value == 0)
            try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: Self.headers(one)) {
                #expect(Set($0.json().tripIDs) == Set(["1", "2", "3", "4"]))
            }
            #expect(hits.value == 1, "the owner's warm read is answered by the handler")
        }
    }

    @Test func aReadAfterAnAcknowledgedWriteIncludesIt() async throws {
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 9, count: 3))
        let api = await Self.cachedAPI(repository)
        let hits = Hits()
        let owner = try await api.riderToken(9)
        let service = Self.headers(try await api.serviceToken(), [.contentType: "application/json"])
        try await api.testLive(onWarmHit: hits.record) { client in
            for minute in 0..<20 {
                let before = hits.value
                for _ in 0..<2 {
                    try await client.execute(
                        uri: "/v1/riders/9/trips?limit=3", method: .get, headers: Self.headers(owner)
                    ) {
                        #expect($0.status == .ok)
                    }
                }
                // The first read of all is a miss; after that the read after each write has refilled the entry.
                #expect(hits.value == before + (minute == 0 ? 1 : 2))
                let time = ISO8601DateFormatter().string(
                    from: Date(timeIntervalSince1970: 1_900_000_000 + Double(minute) * 60))
                let body = ByteBuffer(
                    string: """
                        {"rider_id": 9, "status": "completed", "product": "UberX", "city": "New York",
                         "time_zone": "America/New_York", "requested_at": "\(time)", "started_at": "\(time)", "completed_at": "\(time)",
                         "pickup": {"lat": 40.7, "lon": -74.0, "address": "A"}, "dropoff": {"lat": 40.8, "lon": -73.9, "address": "B"},
                         "distance_m": 100, "duration_s": 60, "fare": {"amount_minor": 500, "currency": "USD"}}
                        """)
                let id = try await client.execute(uri: "/v1/trips", method: .post, headers: service, body: body) {
                    try #require($0.json().string("id"))
                }
                let hitsBeforeRead = hits.value
                try await client.execute(uri: "/v1/riders/9/trips?limit=3", method: .get, headers: Self.headers(owner))
                {
                    #expect($0.json().tripIDs.first == id)
                    #expect($0.headers[Self.serverTiming]?.hasPrefix("cache;desc=miss") == true)
                }
                #expect(hits.value == hitsBeforeRead, "the read after a write is a miss, never a stored answer")
            }
        }
    }

    @Test func theLivenessProbeIsAnsweredOnTheEventLoopAsTheRouterAnswersIt() async throws {
        // No cache: the handler still answers liveness, and nothing else.
        let api = await TestAPI(repository: InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 2)))
        let registry = PrometheusCollectorRegistry()
        let hits = Hits()
        let byRouter = try await api.testLive(warmHits: false) { client in
            try await client.execute(uri: "/healthz", method: .get) { $0 }
        }
        try await api.testLive(metrics: PrometheusMetricsFactory(registry: registry), onWarmHit: hits.record) {
            client in
            let byHandler = try await client.execute(uri: "/healthz", method: .get) { $0 }
            #expect(hits.value == 1)
            #expect(Self.requestCount(registry, route: "/healthz", status: 200) == 1)
            #expect(byHandler.status == .ok)
            #expect(String(buffer: byHandler.body) == #"{"status":"ok"}"#)
            #expect(byHandler.body == byRouter.body)
            #expect(Self.comparable(byHandler.headers) == Self.comparable(byRouter.headers))
            // Other methods and readiness are the router's.
            try await client.execute(uri: "/healthz", method: .post) { #expect($0.status == .methodNotAllowed) }
            try await client.execute(uri: "/readyz", method: .get) { #expect($0.status == .ok) }
            #expect(hits.value == 1)
        }
    }

    // MARK: - Order on one connection

    private static func head(_ path: String) -> HTTPRequestPart {
        .head(HTTPRequest(method: .get, scheme: nil, authority: "localhost", path: path))
    }

    private static func plainAnswer(_ text: String) -> StoredResponse {
        StoredResponse(
            route: RiderReadPath.listRoute,
            response: APIResponse(
                status: .ok, headers: [.contentType: "text/plain"], body: .bytes(ByteBuffer(string: text)))
        )
    }

    /// A handler that answers `/hit` with a 200 "cached" and passes everything else on.
    private static func stubChannel() throws -> EmbeddedChannel {
        EmbeddedChannel(
            handler: WarmHitHandler(metrics: RequestMetrics(factory: NOOPMetricsHandler.instance)) { head in
                head.path == "/hit" ? plainAnswer("cached") : nil
            })
    }

    private static func isHead(_ part: HTTPRequestPart?) -> Bool {
        if case .head = part { return true }
        return false
    }

    private static func isEnd(_ part: HTTPRequestPart?) -> Bool {
        if case .end = part { return true }
        return false
    }

    @Test func pipelinedRequestsBehindOnesPassedOnArePassedOnInOrderUntilAllAreAnswered() throws {
        let channel = try Self.stubChannel()
        let handler = try channel.pipeline.syncOperations.handler(type: WarmHitHandler.self)
        // Three pipelined requests: a miss, a hit, another miss. The hit must not overtake the first answer.
        for path in ["/miss-1", "/hit", "/miss-2"] {
            try channel.writeInbound(Self.head(path))
            try channel.writeInbound(HTTPRequestPart.end(nil))
        }
        var passedOn: [String] = []
        while let part = try channel.readInbound(as: HTTPRequestPart.self) {
            if case .head(let head) = part { passedOn.append(head.path ?? "") }
        }
        #expect(passedOn == ["/miss-1", "/hit", "/miss-2"])
        #expect(handler.state == .passingOn(unanswered: 3, receiving: false))
        #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil)
        // The router answers them one by one; only after the last does the handler take requests again.
        for remaining in [2, 1] {
            try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
            try channel.writeOutbound(HTTPResponsePart.end(nil))
            #expect(handler.state == .passingOn(unanswered: remaining, receiving: false))
        }
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        #expect(handler.state == .idle)
        while try channel.readOutbound(as: HTTPResponsePart.self) != nil {}
        try channel.writeInbound(Self.head("/hit"))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil, "a hit is not passed on")
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(handler.state == .idle)
        guard case .head(let response) = try channel.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("expected the hit's response")
            return
        }
        #expect(response.status == .ok)
        while try channel.readOutbound(as: HTTPResponsePart.self) != nil {}
        #expect(try channel.finish().isClean)
    }

    @Test func aRequestAnsweredByTheRouterBeforeItsEndFreesTheConnectionOnceItEnds() throws {
        let channel = try Self.stubChannel()
        let handler = try channel.pipeline.syncOperations.handler(type: WarmHitHandler.self)
        try channel.writeInbound(Self.head("/miss"))
        #expect(handler.state == .passingOn(unanswered: 1, receiving: true))
        // The router answers before the request's end arrived (an early refusal): still receiving.
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        #expect(handler.state == .passingOn(unanswered: 0, receiving: true))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(handler.state == .idle)
        #expect(Self.isHead(try channel.readInbound(as: HTTPRequestPart.self)))
        #expect(Self.isEnd(try channel.readInbound(as: HTTPRequestPart.self)))
        // With nothing outstanding, a hit is answered here again.
        try channel.writeInbound(Self.head("/hit"))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil)
        _ = try channel.readOutbound(as: HTTPResponsePart.self)
        guard case .head(let response) = try channel.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("expected the hit's response")
            return
        }
        #expect(response.status == .ok)
        _ = try channel.finish()
    }

    @Test func aHitWaitsBehindARequestStillBeingAnsweredByTheRouter() throws {
        let channel = try Self.stubChannel()
        // A miss goes on to the router.
        try channel.writeInbound(Self.head("/miss"))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(
            try channel.readInbound(as: HTTPRequestPart.self).map { if case .head = $0 { true } else { false } } == true
        )
        #expect(
            try channel.readInbound(as: HTTPRequestPart.self).map { if case .end = $0 { true } else { false } } == true)
        // A pipelined hit behind it must not overtake its answer: it goes on too.
        try channel.writeInbound(Self.head("/hit"))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) != nil)
        #expect(try channel.readInbound(as: HTTPRequestPart.self) != nil)
        #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil)
        // The router answers both; after that a hit is answered on the spot.
        for _ in 0..<2 {
            try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
            try channel.writeOutbound(HTTPResponsePart.end(nil))
            _ = try channel.readOutbound(as: HTTPResponsePart.self)
            _ = try channel.readOutbound(as: HTTPResponsePart.self)
        }
        // Keep-alive, which many HTTP/1.1 clients send, does not stop the handler.
        try channel.writeInbound(
            HTTPRequestPart.head(
                HTTPRequest(
                    method: .get, scheme: nil, authority: "localhost", path: "/hit",
                    headerFields: [.connection: "Keep-Alive"])
            ))
        #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil, "answered only once the request has ended")
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil)
        guard case .head(let response) = try channel.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("expected a response head")
            return
        }
        #expect(response.status == .ok)
        #expect(response.headerFields[.contentLength] == "6")
        #expect(response.headerFields[Self.requestID]?.isEmpty == false)
        guard case .body(let body) = try channel.readOutbound(as: HTTPResponsePart.self) else {
            Issue.record("expected a body")
            return
        }
        #expect(String(buffer: body) == "cached")
        #expect(
            try channel.readOutbound(as: HTTPResponsePart.self).map { if case .end = $0 { true } else { false } }
                == true)
        #expect(try channel.finish().isClean)
    }

    @Test func requestsWithABodyOrAConnectionHeaderAlwaysGoOn() throws {
        let channel = try Self.stubChannel()
        let heads: [HTTPRequest] = [
            HTTPRequest(
                method: .get, scheme: nil, authority: "localhost", path: "/hit", headerFields: [.contentLength: "3"]),
            HTTPRequest(
                method: .get, scheme: nil, authority: "localhost", path: "/hit",
                headerFields: [.transferEncoding: "chunked"]),
            HTTPRequest(
                method: .get, scheme: nil, authority: "localhost", path: "/hit", headerFields: [.connection: "close"]),
            HTTPRequest(
                method: .get, scheme: nil, authority: "localhost", path: "/hit",
                headerFields: [.connection: "keep-alive, Upgrade"]),
            HTTPRequest(method: .head, scheme: nil, authority: "localhost", path: "/hit"),
        ]
        for head in heads {
            try channel.writeInbound(HTTPRequestPart.head(head))
            try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "abc")))
            try channel.writeInbound(HTTPRequestPart.end(nil))
            #expect(try channel.readInbound(as: HTTPRequestPart.self) != nil)
            #expect(
                try channel.readInbound(as: HTTPRequestPart.self).map { if case .body = $0 { true } else { false } }
                    == true)
            #expect(try channel.readInbound(as: HTTPRequestPart.self) != nil)
            try channel.writeOutbound(HTTPResponsePart.end(nil))
            _ = try channel.readOutbound(as: HTTPResponsePart.self)
        }
        #expect(try channel.finish().isClean)
    }

    @Test(
        arguments: [
            ("/v1/riders/7/trips", RiderReadPath.list(riderID: "7")),
            ("/v1/riders/7/trips/12", RiderReadPath.detail(riderID: "7", tripID: "12")),
            ("/v1/riders/7/trips/", nil), ("/v1/riders//trips", nil), ("/v1/riders/7/trip", nil), ("/v1/trips", nil),
            ("/v2/riders/7/trips", nil), ("/v1/riders/7/trips/12/x", nil), ("v1/riders/7/trips", nil),
        ] as [(String, RiderReadPath?)])
    func pathsOfTheRiderReads(path: String, expected: RiderReadPath?) {
        #expect(RiderReadPath(path[...]) == expected)
    }

    @Test(arguments: [
        (Int64(0), "Thu, 01 Jan 1970 00:00:00 GMT"), (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
        (1_795_325_785, "Sun, 22 Nov 2026 05:36:25 GMT"), (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
        (-1, "Wed, 31 Dec 1969 23:59:59 GMT"),
    ])
    func httpDates(seconds: Int64, expected: String) {
        #expect(HTTPDate.format(secondsSince1970: seconds) == expected)
        var date = HTTPDate()
        #expect(date.value(secondsSince1970: seconds) == expected)
        #expect(date.value(secondsSince1970: seconds) == expected)
    }
}
