import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Prometheus
import Testing
import TripHistoryCache
import TripHistoryDomain
import TripHistoryTestSupport

@testable import TripHistoryHTTP

/// The event-loop shortcut for warm cache hits: on a real socket it must answer exactly as the router
/// would, only for warm hits of the caller's own reads, never after a write it has not seen; on a channel it
/// must keep responses in request order.
@Suite struct EventLoopShortcutTests {
    typealias API = TestAPI<InMemoryTripRepository>

    private static let serverTiming = HTTPField.Name("Server-Timing")!
    private static let requestID = HTTPField.Name("X-Request-ID")!

    private static func cachedAPI(_ repository: InMemoryTripRepository) async -> API {
        await TestAPI(repository: repository, cache: TripResponseCache())
    }

    /// Responses the shortcut wrote, per route and status, read from its own metrics registry.
    private static func shortcutCount(_ registry: PrometheusCollectorRegistry, route: String, status: Int) -> Int {
        let text = String(decoding: registry.emitToBuffer(), as: UTF8.self)
        let prefix = "hb_requests{http_route=\"\(route)\",http_request_method=\"GET\",http_response_status_code=\"\(status)\"} "
        return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
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

    @Test func aWarmHitIsAnsweredExactlyAsTheRouterAnswersIt() async throws {
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 30))
        let api = await Self.cachedAPI(repository)
        let registry = PrometheusCollectorRegistry()
        let token = try await api.riderToken(1)
        let reads = [
            ("/v1/riders/1/trips?limit=7", RiderReadPath.listRoute), ("/v1/riders/1/trips/3", RiderReadPath.detailRoute),
            ("/v1/riders/1/trips?limit=5&tz=Asia/Tokyo", RiderReadPath.listRoute),
        ]
        let french = Self.headers(token, [.acceptLanguage: "fr-FR"])
        // Without the shortcut: the first read computes, the second is the router's answer from the warm cache.
        let byRouter = try await api.testLive(shortcut: false) { client in
            var answers: [TestResponse] = []
            for (uri, _) in reads {
                try await client.execute(uri: uri, method: .get, headers: french) { #expect($0.status == .ok) }
                answers.append(try await client.execute(uri: uri, method: .get, headers: french) { $0 })
            }
            return answers
        }
        // The same cache behind the shortcut: the same reads are answered on the event loop.
        try await api.testLive(shortcutMetrics: PrometheusMetricsFactory(registry: registry)) { client in
            for ((uri, route), byRouter) in zip(reads, byRouter) {
                #expect(byRouter.headers[Self.serverTiming] == "cache;desc=hit")
                let queries = repository.queryCount
                let before = Self.shortcutCount(registry, route: route, status: 200)
                let byShortcut = try await client.execute(
                    uri: uri, method: .get, headers: Self.headers(token, [.acceptLanguage: "fr-FR", Self.requestID: "trace-7"])
                ) { $0 }
                #expect(Self.shortcutCount(registry, route: route, status: 200) == before + 1, "\(uri)")
                #expect(repository.queryCount == queries)
                #expect(byShortcut.status == .ok)
                #expect(byShortcut.headers[.contentLanguage] == "fr-FR")
                #expect(byShortcut.body == byRouter.body)
                #expect(Self.comparable(byShortcut.headers) == Self.comparable(byRouter.headers))
                #expect(byShortcut.headers[.contentLength] == String(byShortcut.body.readableBytes))
                #expect(byShortcut.headers[Self.requestID] == "trace-7")
                #expect(byShortcut.headers[.date]?.hasSuffix(" GMT") == true)

                let tag = try #require(byShortcut.headers[.eTag])
                let notModified = try await client.execute(
                    uri: uri, method: .get, headers: Self.headers(token, [.acceptLanguage: "fr-FR", .ifNoneMatch: tag])
                ) { $0 }
                #expect(notModified.status == .notModified)
                #expect(notModified.body.readableBytes == 0)
                #expect(notModified.headers[.eTag] == tag)
                #expect(notModified.headers[.contentType] == nil)
                #expect(notModified.headers[Self.requestID] != nil)
            }
            #expect(Self.shortcutCount(registry, route: RiderReadPath.listRoute, status: 304) == 2)
            #expect(Self.shortcutCount(registry, route: RiderReadPath.detailRoute, status: 304) == 1)
        }
    }

    @Test func onlyTheCallersOwnWarmReadsAreAnsweredTheRestReachTheRouter() async throws {
        let trips = TripFixtures.history(riderID: 1, count: 4) + TripFixtures.history(riderID: 2, count: 3, firstID: 100)
        let repository = InMemoryTripRepository(trips: trips)
        let api = await Self.cachedAPI(repository)
        let registry = PrometheusCollectorRegistry()
        let one = try await api.riderToken(1)
        let two = try await api.riderToken(2)
        let service = try await api.serviceToken()
        try await api.testLive(shortcutMetrics: PrometheusMetricsFactory(registry: registry)) { client in
            for uri in ["/v1/riders/1/trips", "/v1/riders/1/trips/2"] {
                try await client.execute(uri: uri, method: .get, headers: Self.headers(one)) { #expect($0.status == .ok) }
            }
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
            #expect(Self.shortcutCount(registry, route: RiderReadPath.listRoute, status: 200) == 0)
            #expect(Self.shortcutCount(registry, route: RiderReadPath.detailRoute, status: 200) == 0)
            try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: Self.headers(one)) {
                #expect(Set($0.json().tripIDs) == Set(["1", "2", "3", "4"]))
            }
            #expect(Self.shortcutCount(registry, route: RiderReadPath.listRoute, status: 200) == 1)
        }
    }

    @Test func aReadAfterAnAcknowledgedWriteIncludesIt() async throws {
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 9, count: 3))
        let api = await Self.cachedAPI(repository)
        let registry = PrometheusCollectorRegistry()
        let owner = try await api.riderToken(9)
        let service = Self.headers(try await api.serviceToken(), [.contentType: "application/json"])
        try await api.testLive(shortcutMetrics: PrometheusMetricsFactory(registry: registry)) { client in
            var hits = 0
            for minute in 0..<20 {
                for _ in 0..<2 {
                    try await client.execute(uri: "/v1/riders/9/trips?limit=3", method: .get, headers: Self.headers(owner)) {
                        #expect($0.status == .ok)
                    }
                }
                // The first read of all computes; after that the read after each write has refilled the entry.
                hits += minute == 0 ? 1 : 2
                #expect(Self.shortcutCount(registry, route: RiderReadPath.listRoute, status: 200) == hits)
                let time = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: 1_900_000_000 + Double(minute) * 60))
                let body = ByteBuffer(string: """
                    {"rider_id": 9, "status": "completed", "product": "UberX", "city": "New York",
                     "time_zone": "America/New_York", "requested_at": "\(time)", "started_at": "\(time)", "completed_at": "\(time)",
                     "pickup": {"lat": 40.7, "lon": -74.0, "address": "A"}, "dropoff": {"lat": 40.8, "lon": -73.9, "address": "B"},
                     "distance_m": 100, "duration_s": 60, "fare": {"amount_minor": 500, "currency": "USD"}}
                    """)
                let id = try await client.execute(uri: "/v1/trips", method: .post, headers: service, body: body) {
                    try #require($0.json().string("id"))
                }
                try await client.execute(uri: "/v1/riders/9/trips?limit=3", method: .get, headers: Self.headers(owner)) {
                    #expect($0.json().tripIDs.first == id)
                    #expect($0.headers[Self.serverTiming]?.hasPrefix("cache;desc=miss") == true)
                }
            }
        }
    }

    @Test func theLivenessProbeIsAnsweredOnTheEventLoopAsTheRouterAnswersIt() async throws {
        // No cache: the shortcut still answers liveness, and nothing else.
        let api = await TestAPI(repository: InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 2)))
        let registry = PrometheusCollectorRegistry()
        let byRouter = try await api.testLive(shortcut: false) { client in
            try await client.execute(uri: "/healthz", method: .get) { $0 }
        }
        let token = try await api.riderToken(1)
        try await api.testLive(shortcutMetrics: PrometheusMetricsFactory(registry: registry)) { client in
            let byShortcut = try await client.execute(uri: "/healthz", method: .get) { $0 }
            #expect(Self.shortcutCount(registry, route: "/healthz", status: 200) == 1)
            #expect(byShortcut.status == .ok)
            #expect(String(buffer: byShortcut.body) == #"{"status":"ok"}"#)
            #expect(byShortcut.body == byRouter.body)
            #expect(Self.comparable(byShortcut.headers) == Self.comparable(byRouter.headers))
            // Everything else is the router's: other methods, readiness, and rider reads without a cache.
            try await client.execute(uri: "/healthz", method: .post) { #expect($0.status == .methodNotAllowed) }
            try await client.execute(uri: "/readyz", method: .get) { #expect($0.status == .ok) }
            for _ in 0..<2 {
                try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: Self.headers(token)) {
                    #expect($0.status == .ok)
                }
            }
            #expect(Self.shortcutCount(registry, route: "/healthz", status: 200) == 1)
            #expect(Self.shortcutCount(registry, route: RiderReadPath.listRoute, status: 200) == 0)
        }
    }

    // MARK: - Order on one connection

    private static func head(_ path: String) -> HTTPRequestPart {
        .head(HTTPRequest(method: .get, scheme: nil, authority: "localhost", path: path))
    }

    /// A shortcut that answers `/hit` with a 200 "cached" and nothing else.
    private static func stubChannel() throws -> EmbeddedChannel {
        let answers = EventLoopShortcut.Answers(metricsFactory: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry())) { head in
            guard head.path == "/hit" else { return nil }
            return ShortcutAnswer(
                route: RiderReadPath.listRoute,
                response: RenderedResponse(status: .ok, headers: [.contentType: "text/plain"], body: ByteBuffer(string: "cached"))
            )
        }
        return EmbeddedChannel(handler: EventLoopShortcut(answers: answers))
    }

    @Test func aHitWaitsBehindARequestStillBeingAnsweredByTheRouter() throws {
        let channel = try Self.stubChannel()
        // A miss goes on to the router.
        try channel.writeInbound(Self.head("/miss"))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(try channel.readInbound(as: HTTPRequestPart.self).map { if case .head = $0 { true } else { false } } == true)
        #expect(try channel.readInbound(as: HTTPRequestPart.self).map { if case .end = $0 { true } else { false } } == true)
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
        // Keep-alive, which many HTTP/1.1 clients send, does not stop the shortcut.
        try channel.writeInbound(HTTPRequestPart.head(
            HTTPRequest(method: .get, scheme: nil, authority: "localhost", path: "/hit", headerFields: [.connection: "Keep-Alive"])
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
        #expect(try channel.readOutbound(as: HTTPResponsePart.self).map { if case .end = $0 { true } else { false } } == true)
        #expect(try channel.finish().isClean)
    }

    @Test func requestsWithABodyOrAConnectionHeaderAlwaysGoOn() throws {
        let channel = try Self.stubChannel()
        let heads: [HTTPRequest] = [
            HTTPRequest(method: .get, scheme: nil, authority: "localhost", path: "/hit", headerFields: [.contentLength: "3"]),
            HTTPRequest(method: .get, scheme: nil, authority: "localhost", path: "/hit", headerFields: [.transferEncoding: "chunked"]),
            HTTPRequest(method: .get, scheme: nil, authority: "localhost", path: "/hit", headerFields: [.connection: "close"]),
            HTTPRequest(method: .get, scheme: nil, authority: "localhost", path: "/hit", headerFields: [.connection: "keep-alive, Upgrade"]),
            HTTPRequest(method: .head, scheme: nil, authority: "localhost", path: "/hit"),
        ]
        for head in heads {
            try channel.writeInbound(HTTPRequestPart.head(head))
            try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "abc")))
            try channel.writeInbound(HTTPRequestPart.end(nil))
            #expect(try channel.readInbound(as: HTTPRequestPart.self) != nil)
            #expect(try channel.readInbound(as: HTTPRequestPart.self).map { if case .body = $0 { true } else { false } } == true)
            #expect(try channel.readInbound(as: HTTPRequestPart.self) != nil)
            try channel.writeOutbound(HTTPResponsePart.end(nil))
            _ = try channel.readOutbound(as: HTTPResponsePart.self)
        }
        #expect(try channel.finish().isClean)
    }

    @Test(arguments: [
        ("/v1/riders/7/trips", RiderReadPath.list(riderID: "7")),
        ("/v1/riders/7/trips/12", RiderReadPath.detail(riderID: "7", tripID: "12")),
        ("/v1/riders/7/trips/", nil), ("/v1/riders//trips", nil), ("/v1/riders/7/trip", nil), ("/v1/trips", nil),
        ("/v2/riders/7/trips", nil), ("/v1/riders/7/trips/12/x", nil), ("v1/riders/7/trips", nil),
    ] as [(String, RiderReadPath?)])
    func pathsOfTheRiderReads(path: String, expected: RiderReadPath?) {
        #expect(RiderReadPath(path) == expected)
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
