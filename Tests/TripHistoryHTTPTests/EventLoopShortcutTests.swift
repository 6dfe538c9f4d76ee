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
import TripHistoryTestSupport

@testable import TripHistoryHTTP

/// The event-loop shortcut for rider reads: on a real socket it must answer exactly as the router would
/// (warm hits at once, other reads once computed), only the caller's own reads, never after a write it has
/// not seen, and hand every failure to the router; on a channel it must keep responses in request order.
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

    @Test func aWarmHitIsAnsweredExactlyAsTheRouterAnswersIt() async throws {
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 30))
        let api = await Self.cachedAPI(repository)
        let registry = PrometheusCollectorRegistry()
        let token = try await api.riderToken(1)
        let reads = [
            ("/v1/riders/1/trips?limit=7", RiderReadPath.listRoute),
            ("/v1/riders/1/trips/3", RiderReadPath.detailRoute),
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
                    uri: uri, method: .get,
                    headers: Self.headers(token, [.acceptLanguage: "fr-FR", Self.requestID: "trace-7"])
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
        let trips =
            TripFixtures.history(riderID: 1, count: 4) + TripFixtures.history(riderID: 2, count: 3, firstID: 100)
        let repository = InMemoryTripRepository(trips: trips)
        let api = await Self.cachedAPI(repository)
        let registry = PrometheusCollectorRegistry()
        let one = try await api.riderToken(1)
        let two = try await api.riderToken(2)
        let service = try await api.serviceToken()
        try await api.testLive(shortcutMetrics: PrometheusMetricsFactory(registry: registry)) { client in
            for uri in ["/v1/riders/1/trips", "/v1/riders/1/trips/2"] {
                try await client.execute(uri: uri, method: .get, headers: Self.headers(one)) {
                    #expect($0.status == .ok)
                }
            }
            // The list read verified the token, so the detail read after it was computed by the shortcut.
            #expect(Self.shortcutCount(registry, route: RiderReadPath.detailRoute, status: 200) == 1)
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
            #expect(Self.shortcutCount(registry, route: RiderReadPath.detailRoute, status: 200) == 1)
            #expect(Self.shortcutCount(registry, route: RiderReadPath.detailRoute, status: 404) == 0)
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
                    try await client.execute(
                        uri: "/v1/riders/9/trips?limit=3", method: .get, headers: Self.headers(owner)
                    ) {
                        #expect($0.status == .ok)
                    }
                }
                // The first read of all computes; after that the read after each write has refilled the entry.
                hits += minute == 0 ? 1 : 2
                #expect(Self.shortcutCount(registry, route: RiderReadPath.listRoute, status: 200) == hits)
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
                try await client.execute(uri: "/v1/riders/9/trips?limit=3", method: .get, headers: Self.headers(owner))
                {
                    #expect($0.json().tripIDs.first == id)
                    #expect($0.headers[Self.serverTiming]?.hasPrefix("cache;desc=miss") == true)
                }
                // That miss is computed by the shortcut, unless it arrived before the router had passed the end of
                // the write's response down the pipeline (the client already had all its bytes): then the
                // shortcut, keeping responses in order, lets the router answer it.
                let count = Self.shortcutCount(registry, route: RiderReadPath.listRoute, status: 200)
                #expect(count == hits || count == hits + 1)
                hits = count
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
            // Other methods and readiness are the router's.
            try await client.execute(uri: "/healthz", method: .post) { #expect($0.status == .methodNotAllowed) }
            try await client.execute(uri: "/readyz", method: .get) { #expect($0.status == .ok) }
            #expect(Self.shortcutCount(registry, route: "/healthz", status: 200) == 1)
        }
    }

    @Test func withoutACacheReadsAreComputedByTheShortcutExactlyAsTheRouterComputesThem() async throws {
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 30))
        let api = await TestAPI(repository: repository)
        let registry = PrometheusCollectorRegistry()
        let token = try await api.riderToken(1)
        let reads = [
            ("/v1/riders/1/trips?limit=7", RiderReadPath.listRoute),
            ("/v1/riders/1/trips/3", RiderReadPath.detailRoute),
            ("/v1/riders/1/trips?limit=5&tz=Asia/Tokyo&status=completed", RiderReadPath.listRoute),
        ]
        let german = Self.headers(token, [.acceptLanguage: "de-DE"])
        let byRouter = try await api.testLive(shortcut: false) { client in
            var answers: [TestResponse] = []
            for (uri, _) in reads {
                answers.append(try await client.execute(uri: uri, method: .get, headers: german) { $0 })
            }
            return answers
        }
        try await api.testLive(shortcutMetrics: PrometheusMetricsFactory(registry: registry)) { client in
            // The router runs above verified the token (both share it), so the shortcut computes every read.
            for ((uri, route), byRouter) in zip(reads, byRouter) {
                let before = Self.shortcutCount(registry, route: route, status: 200)
                let queries = repository.queryCount
                let byShortcut = try await client.execute(
                    uri: uri, method: .get,
                    headers: Self.headers(token, [.acceptLanguage: "de-DE", Self.requestID: "trace-9"])
                ) { $0 }
                #expect(Self.shortcutCount(registry, route: route, status: 200) == before + 1, "\(uri)")
                #expect(repository.queryCount == queries + 1, "computed, not remembered: \(uri)")
                #expect(byShortcut.status == .ok)
                #expect(byShortcut.body == byRouter.body, "\(uri)")
                // Server-Timing carries this response's own durations; its shape is the router's.
                #expect(byShortcut.headers[Self.serverTiming]?.hasPrefix("db;dur=") == true)
                #expect(byRouter.headers[Self.serverTiming]?.hasPrefix("db;dur=") == true)
                let withoutTiming = { (fields: HTTPFields) in
                    Self.comparable(fields).filter { !$0.hasPrefix("server-timing:") }
                }
                #expect(withoutTiming(byShortcut.headers) == withoutTiming(byRouter.headers), "\(uri)")
                #expect(byShortcut.headers[.contentLength] == String(byShortcut.body.readableBytes))
                #expect(byShortcut.headers[Self.requestID] == "trace-9")
                // Revalidation needs no cache: the tag of the computed body answers 304.
                let tag = try #require(byShortcut.headers[.eTag])
                try await client.execute(
                    uri: uri, method: .get, headers: Self.headers(token, [.acceptLanguage: "de-DE", .ifNoneMatch: tag])
                ) {
                    #expect($0.status == .notModified)
                    #expect($0.body.readableBytes == 0)
                }
            }
            #expect(Self.shortcutCount(registry, route: RiderReadPath.listRoute, status: 304) == 2)
            #expect(Self.shortcutCount(registry, route: RiderReadPath.detailRoute, status: 304) == 1)
        }
    }

    @Test func aComputationThatFailsIsAnsweredByTheRouterWithItsProblem() async throws {
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 5))
        let api = await TestAPI(repository: repository)
        let registry = PrometheusCollectorRegistry()
        let token = try await api.riderToken(1)
        let other = try await api.riderToken(2)
        try await api.testLive(shortcutMetrics: PrometheusMetricsFactory(registry: registry)) { client in
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
            // The store is down: the router's 503 with Retry-After, then the shortcut again once it is back.
            repository.failure.withLock { $0 = .unavailable(retryAfterSeconds: 2) }
            try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: Self.headers(token)) {
                response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "2")
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(!String(buffer: response.body).contains("SELECT"))
            }
            #expect(Self.shortcutCount(registry, route: RiderReadPath.listRoute, status: 200) == 0)
            repository.failure.withLock { $0 = nil }
            try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: Self.headers(token)) {
                #expect($0.status == .ok)
                #expect($0.json().tripIDs.count == 5)
            }
            #expect(Self.shortcutCount(registry, route: RiderReadPath.listRoute, status: 200) == 1)
        }
    }

    // MARK: - Order on one connection

    private static func head(_ path: String) -> HTTPRequestPart {
        .head(HTTPRequest(method: .get, scheme: nil, authority: "localhost", path: path))
    }

    private static func plainAnswer(_ text: String) -> ShortcutAnswer {
        ShortcutAnswer(
            route: RiderReadPath.listRoute,
            response: RenderedResponse(
                status: .ok, headers: [.contentType: "text/plain"], body: ByteBuffer(string: text))
        )
    }

    private struct StubFailure: Error {}

    /// A shortcut that answers `/hit` with a 200 "cached" at once, computes "computed" for `/compute`, fails
    /// the computation for `/fail`, and passes everything else on.
    private static var stubAnswers: EventLoopShortcut.Answers {
        EventLoopShortcut.Answers(metricsFactory: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry())) {
            head in
            switch head.path {
            case "/hit": return .answer(plainAnswer("cached"))
            case "/compute": return .compute { plainAnswer("computed") }
            case "/fail": return .compute { throw StubFailure() }
            default: return nil
            }
        }
    }

    private static func stubChannel() throws -> EmbeddedChannel {
        EmbeddedChannel(handler: EventLoopShortcut(answers: stubAnswers))
    }

    /// A channel whose loop is thread-safe, for computations, which finish on another thread.
    private static func stubAsyncChannel() async throws -> NIOAsyncTestingChannel {
        let answers = stubAnswers
        let channel = try await NIOAsyncTestingChannel { channel in
            try channel.pipeline.syncOperations.addHandler(EventLoopShortcut(answers: answers))
        }
        // Answers are written only to a connection that is still open.
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080))
        return channel
    }

    /// The next complete response written, as its body's text.
    private static func nextBody(_ channel: NIOAsyncTestingChannel) async throws -> String? {
        guard case .head = try await channel.waitForOutboundWrite(as: HTTPResponsePart.self),
            case .body(let body) = try await channel.waitForOutboundWrite(as: HTTPResponsePart.self),
            case .end = try await channel.waitForOutboundWrite(as: HTTPResponsePart.self)
        else { return nil }
        return String(buffer: body)
    }

    /// The path of the next request passed on, after checking that its end follows.
    private static func nextPassedOn(_ channel: NIOAsyncTestingChannel) async throws -> String? {
        guard case .head(let head) = try await channel.waitForInboundWrite(as: HTTPRequestPart.self),
            case .end = try await channel.waitForInboundWrite(as: HTTPRequestPart.self)
        else { return nil }
        return head.path
    }

    private static func answerAsRouter(_ channel: NIOAsyncTestingChannel, _ status: HTTPResponse.Status) async throws {
        try await channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: status)))
        try await channel.writeOutbound(HTTPResponsePart.end(nil))
        _ = try await channel.readOutbound(as: HTTPResponsePart.self)
        _ = try await channel.readOutbound(as: HTTPResponsePart.self)
    }

    @Test func requestsPipelinedBehindAComputationWaitForItsAnswer() async throws {
        let channel = try await Self.stubAsyncChannel()
        // A hit and a request for the router, pipelined behind a computed read, arrive in the same batch.
        for path in ["/compute", "/hit", "/other"] {
            try await channel.writeInbound(Self.head(path))
            try await channel.writeInbound(HTTPRequestPart.end(nil))
        }
        #expect(try await Self.nextBody(channel) == "computed")
        #expect(try await Self.nextBody(channel) == "cached")
        // The router gets the third only after both answers.
        #expect(try await Self.nextPassedOn(channel) == "/other")
        try await Self.answerAsRouter(channel, .ok)
        #expect(try await channel.finish().isClean)
    }

    /// Counts the socket reads the handlers behind it ask for.
    private final class ReadCounter: ChannelOutboundHandler, Sendable {
        typealias OutboundIn = HTTPResponsePart
        private let reads = Mutex(0)

        var count: Int { reads.withLock { $0 } }

        func read(context: ChannelHandlerContext) {
            reads.withLock { $0 += 1 }
            context.read()
        }
    }

    @Test func aClientPipeliningFarAheadOfAComputationIsReadFromAgainOnlyOnceItIsAnswered() async throws {
        let (gate, open) = AsyncStream<Void>.makeStream()
        let answers = EventLoopShortcut.Answers(
            metricsFactory: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry())
        ) { head in
            guard head.path == "/slow" else { return .answer(Self.plainAnswer("cached")) }
            return .compute {
                for await _ in gate { break }
                return Self.plainAnswer("slow")
            }
        }
        let reads = ReadCounter()
        let channel = try await NIOAsyncTestingChannel { channel in
            try channel.pipeline.syncOperations.addHandlers([reads, EventLoopShortcut(answers: answers)])
        }
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080))
        let requestRead = {
            channel.pipeline.read()
            // Runs after the read on the channel's loop, so the count below includes it.
            try await channel.testingEventLoop.executeInContext {}
        }
        try await channel.writeInbound(Self.head("/slow"))
        try await channel.writeInbound(HTTPRequestPart.end(nil))
        // A request or two pipelined behind the computation: reading goes on.
        try await channel.writeInbound(Self.head("/hit"))
        try await channel.writeInbound(HTTPRequestPart.end(nil))
        var before = reads.count
        try await requestRead()
        #expect(reads.count == before + 1)
        // Sixteen parts held: the socket is left alone until the computation is answered.
        for _ in 0..<7 {
            try await channel.writeInbound(Self.head("/hit"))
            try await channel.writeInbound(HTTPRequestPart.end(nil))
        }
        before = reads.count
        try await requestRead()
        #expect(reads.count == before)
        open.yield()
        #expect(try await Self.nextBody(channel) == "slow")
        for _ in 0..<8 {
            #expect(try await Self.nextBody(channel) == "cached")
        }
        try await channel.testingEventLoop.executeInContext {}
        #expect(reads.count == before + 1, "the deferred read is made once the held requests are answered")
        #expect(try await channel.finish().isClean)
    }

    @Test func aFailedComputationPassesItsRequestOnAndTheRequestsBehindItFollow() async throws {
        let channel = try await Self.stubAsyncChannel()
        for path in ["/fail", "/hit"] {
            try await channel.writeInbound(Self.head(path))
            try await channel.writeInbound(HTTPRequestPart.end(nil))
        }
        // Both reach the router, in order: the hit must not overtake the failed request's answer.
        #expect(try await Self.nextPassedOn(channel) == "/fail")
        #expect(try await Self.nextPassedOn(channel) == "/hit")
        #expect(try await channel.readOutbound(as: HTTPResponsePart.self) == nil, "nothing written for the failed one")
        for _ in 0..<2 {
            try await Self.answerAsRouter(channel, .serviceUnavailable)
        }
        // With both answered, the next computation is the shortcut's again.
        try await channel.writeInbound(Self.head("/compute"))
        try await channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(try await Self.nextBody(channel) == "computed")
        #expect(try await channel.finish().isClean)
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
        // Keep-alive, which many HTTP/1.1 clients send, does not stop the shortcut.
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
