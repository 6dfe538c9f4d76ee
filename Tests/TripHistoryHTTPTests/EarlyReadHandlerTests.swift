import CoreMetrics
import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import Prometheus
import Synchronization
import Testing
import TripHistoryApp
import TripHistoryCache
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryTestSupport

@testable import TripHistoryAPI
@testable import TripHistoryHTTP

/// The early-read handler: on a real socket it must answer exactly as the router would (warm hits at once,
/// other checked reads computed once, failures with their problem), only the caller's own reads, never after
/// a write it has not seen; on a channel its state machine must keep pipelined responses in request order.
@Suite struct EarlyReadHandlerTests {
    typealias API = TestAPI<InMemoryTripRepository>

    private static let serverTiming = HTTPField.Name("Server-Timing")!
    private static let requestID = HTTPField.Name("X-Request-ID")!

    private static func cachedAPI(_ repository: InMemoryTripRepository) async -> API {
        await TestAPI(
            repository: repository,
            settings: {
                $0.cache = TripResponseCache()
            })
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

    /// Counts the requests the handler took: answered from memory, or computed.
    final class Answers: Sendable {
        private let counts = Mutex((stored: 0, computed: 0))
        var stored: Int { counts.withLock { $0.stored } }
        var computed: Int { counts.withLock { $0.computed } }
        @Sendable func record(_ answer: EarlyAnswer) {
            counts.withLock {
                switch answer {
                case .stored: $0.stored += 1
                case .computed: $0.computed += 1
                }
            }
        }
    }

    @Test func aWarmHitIsAnsweredExactlyAsTheRouterAnswersIt() async throws {
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 30))
        let api = await Self.cachedAPI(repository)
        let registry = PrometheusCollectorRegistry()
        let answers = Answers()
        let token = try await api.riderToken(1)
        let reads = [
            ("/v1/riders/1/trips?limit=7", APIOperation.listRiderTrips.path),
            ("/v1/riders/1/trips/3", APIOperation.getRiderTrip.path),
            ("/v1/riders/1/trips?limit=5&tz=Asia/Tokyo", APIOperation.listRiderTrips.path),
        ]
        let french = Self.headers(token, [.acceptLanguage: "fr-FR"])
        // Without the handler: the first read computes, the second is the router's answer from the warm cache.
        let byRouter = try await api.testLive(earlyReads: false) { client in
            var answers: [TestResponse] = []
            for (uri, _) in reads {
                try await client.execute(uri: uri, method: .get, headers: french) { #expect($0.status == .ok) }
                answers.append(try await client.execute(uri: uri, method: .get, headers: french) { $0 })
            }
            return answers
        }
        // The same cache behind the handler: the same reads are answered on the event loop.
        try await api.testLive(metrics: PrometheusMetricsFactory(registry: registry), onEarlyAnswer: answers.record) {
            client in
            for ((uri, route), byRouter) in zip(reads, byRouter) {
                #expect(byRouter.headers[Self.serverTiming] == "cache;desc=hit")
                let queries = repository.queryCount
                let (before, storedBefore) = (Self.requestCount(registry, route: route, status: 200), answers.stored)
                let byHandler = try await client.execute(
                    uri: uri, method: .get,
                    headers: Self.headers(token, [.acceptLanguage: "fr-FR", Self.requestID: "trace-7"])
                ) { $0 }
                #expect(answers.stored == storedBefore + 1, "\(uri)")
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
            #expect(answers.stored == 6)
            #expect(answers.computed == 0)
            #expect(Self.requestCount(registry, route: APIOperation.listRiderTrips.path, status: 304) == 2)
            #expect(Self.requestCount(registry, route: APIOperation.getRiderTrip.path, status: 304) == 1)
        }
    }

    @Test(arguments: [true, false])
    func aMissIsComputedOnceByTheHandlerExactlyAsTheRouterComputesIt(cached: Bool) async throws {
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 30))
        let api = cached ? await Self.cachedAPI(repository) : await TestAPI(repository: repository)
        let registry = PrometheusCollectorRegistry()
        let answers = Answers()
        let token = try await api.riderToken(1)
        let reads = [
            ("/v1/riders/1/trips?limit=7", APIOperation.listRiderTrips.path),
            ("/v1/riders/1/trips/3", APIOperation.getRiderTrip.path),
            ("/v1/riders/1/trips?limit=5&tz=Asia/Tokyo&status=completed", APIOperation.listRiderTrips.path),
        ]
        let german = Self.headers(token, [.acceptLanguage: "de-DE"])
        let byRouter = try await api.testLive(earlyReads: false) { client in
            var answers: [TestResponse] = []
            for (uri, _) in reads {
                answers.append(try await client.execute(uri: uri, method: .get, headers: german) { $0 })
            }
            return answers
        }
        // A second API over the same store, so the reads above left nothing in its cache.
        let fresh = cached ? await Self.cachedAPI(repository) : api
        try await fresh.testLive(metrics: PrometheusMetricsFactory(registry: registry), onEarlyAnswer: answers.record) {
            client in
            // Verifies the token (the first request of all goes to the router, which verifies it).
            _ = try await client.execute(uri: "/v1/riders/1/trips/29", method: .get, headers: german) { $0 }
            let computedBefore = answers.computed
            for ((uri, route), byRouter) in zip(reads, byRouter) {
                let before = Self.requestCount(registry, route: route, status: 200)
                let queries = repository.queryCount
                let byHandler = try await client.execute(
                    uri: uri, method: .get,
                    headers: Self.headers(token, [.acceptLanguage: "de-DE", Self.requestID: "trace-9"])
                ) { $0 }
                #expect(Self.requestCount(registry, route: route, status: 200) == before + 1, "\(uri)")
                #expect(repository.queryCount == queries + 1, "computed once: \(uri)")
                #expect(byHandler.status == .ok)
                #expect(byHandler.body == byRouter.body, "\(uri)")
                // Server-Timing carries this response's own durations; its shape is the router's.
                #expect(byHandler.headers[Self.serverTiming]?.contains("db;dur=") == true)
                let withoutTiming = { (fields: HTTPFields) in
                    Self.comparable(fields).filter { !$0.hasPrefix("server-timing:") }
                }
                #expect(withoutTiming(byHandler.headers) == withoutTiming(byRouter.headers), "\(uri)")
                #expect(byHandler.headers[.contentLength] == String(byHandler.body.readableBytes))
                #expect(byHandler.headers[Self.requestID] == "trace-9")
                #expect(byHandler.headers[.xContentTypeOptions] == "nosniff")
            }
            #expect(answers.computed == computedBefore + reads.count)
        }
    }

    @Test func aFailureIsComputedOnceAndAnsweredWithItsProblem() async throws {
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 5))
        let api = await Self.cachedAPI(repository)
        let answers = Answers()
        let token = try await api.riderToken(1)
        let other = try await api.riderToken(2)
        try await api.testLive(onEarlyAnswer: answers.record) { client in
            for bearer in [token, other] {
                _ = try await client.execute(uri: "/v1/riders/2/trips", method: .get, headers: Self.headers(bearer)) {
                    $0
                }
            }
            // Rider 2 asking for rider 1's trip goes to the router (access is decided before anything is
            // computed); a trip that does not exist is computed and is the same 404.
            for (uri, bearer) in [("/v1/riders/1/trips/3", other), ("/v1/riders/1/trips/999", token)] {
                try await client.execute(uri: uri, method: .get, headers: Self.headers(bearer)) { response in
                    #expect(response.status == .notFound, "\(uri)")
                    #expect(response.headers[.contentType] == "application/problem+json")
                    #expect(try response.json().string("code") == "not_found")
                    #expect(response.headers[Self.requestID] == (try response.json().string("request_id")))
                }
            }
            // The store is down: one attempt, a 503 with Retry-After, then data once it is back.
            repository.failure.withLock { $0 = .unavailable(retryAfterSeconds: 2) }
            let (attempts, computed) = (repository.attemptCount, answers.computed)
            try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: Self.headers(token)) {
                response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "2")
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(response.headers[HTTPField.Name("Link")!] == #"</docs#problem-unavailable>; rel="describedby""#)
                #expect(!String(buffer: response.body).contains("SELECT"))
            }
            #expect(repository.attemptCount == attempts + 1, "a failed read is attempted once")
            #expect(answers.computed == computed + 1, "and answered by the handler, not again by the router")
            repository.failure.withLock { $0 = nil }
            try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: Self.headers(token)) {
                #expect($0.status == .ok)
                #expect($0.json().tripIDs.count == 5)
            }
        }
    }

    @Test func onlyTheCallersOwnReadsAreAnsweredTheRestReachTheRouter() async throws {
        let trips =
            TripFixtures.history(riderID: 1, count: 4) + TripFixtures.history(riderID: 2, count: 3, firstID: 100)
        let repository = InMemoryTripRepository(trips: trips)
        let api = await Self.cachedAPI(repository)
        let answers = Answers()
        let one = try await api.riderToken(1)
        let two = try await api.riderToken(2)
        let service = try await api.serviceToken()
        try await api.testLive(onEarlyAnswer: answers.record) { client in
            for uri in ["/v1/riders/1/trips", "/v1/riders/1/trips/2"] {
                try await client.execute(uri: uri, method: .get, headers: Self.headers(one)) {
                    #expect($0.status == .ok)
                }
            }
            // The first read verified the token at the router, so the second was computed by the handler.
            #expect(answers.computed == 1)
            _ = try await client.execute(uri: "/v1/riders/2/trips", method: .get, headers: Self.headers(two)) { $0 }
            let (stored, computed) = (answers.stored, answers.computed)
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
            #expect(answers.stored == stored)
            #expect(answers.computed == computed)
            try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: Self.headers(one)) {
                #expect(Set($0.json().tripIDs) == Set(["1", "2", "3", "4"]))
            }
            #expect(answers.stored == stored + 1, "the owner's warm read is answered from memory")
        }
    }

    @Test func aReadAfterAnAcknowledgedWriteIncludesIt() async throws {
        let repository = InMemoryTripRepository(trips: TripFixtures.history(riderID: 9, count: 3))
        let api = await Self.cachedAPI(repository)
        let answers = Answers()
        let owner = try await api.riderToken(9)
        let service = Self.headers(try await api.serviceToken(), [.contentType: "application/json"])
        try await api.testLive(onEarlyAnswer: answers.record) { client in
            for minute in 0..<20 {
                for _ in 0..<2 {
                    try await client.execute(
                        uri: "/v1/riders/9/trips?limit=3", method: .get, headers: Self.headers(owner)
                    ) {
                        #expect($0.status == .ok)
                    }
                }
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
                let storedBeforeRead = answers.stored
                try await client.execute(uri: "/v1/riders/9/trips?limit=3", method: .get, headers: Self.headers(owner))
                {
                    #expect($0.json().tripIDs.first == id)
                    #expect($0.headers[Self.serverTiming]?.hasPrefix("cache;desc=miss") == true)
                }
                #expect(answers.stored == storedBeforeRead, "the read after a write is a miss, never a stored answer")
            }
            #expect(answers.stored >= 20, "the second read of each minute is a warm hit")
        }
    }

    @Test func theLivenessProbeIsAnsweredOnTheEventLoopAsTheRouterAnswersIt() async throws {
        // No cache: the handler still answers liveness from memory.
        let api = await TestAPI(repository: InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 2)))
        let registry = PrometheusCollectorRegistry()
        let answers = Answers()
        let byRouter = try await api.testLive(earlyReads: false) { client in
            try await client.execute(uri: "/healthz", method: .get) { $0 }
        }
        try await api.testLive(metrics: PrometheusMetricsFactory(registry: registry), onEarlyAnswer: answers.record) {
            client in
            let byHandler = try await client.execute(uri: "/healthz", method: .get) { $0 }
            #expect(answers.stored == 1)
            #expect(Self.requestCount(registry, route: "/healthz", status: 200) == 1)
            #expect(byHandler.status == .ok)
            #expect(String(buffer: byHandler.body) == #"{"status":"ok"}"#)
            #expect(byHandler.body == byRouter.body)
            #expect(Self.comparable(byHandler.headers) == Self.comparable(byRouter.headers))
            // Other methods and readiness are the router's.
            try await client.execute(uri: "/healthz", method: .post) { #expect($0.status == .methodNotAllowed) }
            try await client.execute(uri: "/readyz", method: .get) { #expect($0.status == .ok) }
            #expect(answers.stored == 1)
        }
    }

    // MARK: - Order on one connection

    private static func head(_ path: String) -> HTTPRequestPart {
        .head(HTTPRequest(method: .get, scheme: nil, authority: "localhost", path: path))
    }

    private static func plainResponse(_ text: String) -> APIResponse {
        APIResponse(status: .ok, headers: [.contentType: "text/plain"], body: .bytes(ByteBuffer(string: text)))
    }

    private struct StubFailure: Error {}

    /// The connection guard of a handler under test: the service's limits, on an activity of its own.
    private static func guardOfTests() -> RequestGuard {
        RequestGuard(
            limits: ConnectionLimits(), state: SharedConnectionState(limits: ConnectionLimits()),
            logger: Logger(label: "test"))
    }

    /// A handler that answers `/hit` with a stored "cached", computes "computed" for `/compute`, fails the
    /// computation for `/fail` (a 503 problem), and passes everything else on.
    private static func stubHandler() -> EarlyReadHandler {
        EarlyReadHandler(
            requestGuard: guardOfTests(), metrics: RequestMetrics(factory: NOOPMetricsHandler.instance),
            logger: Logger(label: "test")
        ) { head in
            switch head.path {
            case "/hit":
                return EarlyRead(
                    route: APIOperation.listRiderTrips.path,
                    answer: .stored(StoredResponse(response: plainResponse("cached"))))
            case "/compute":
                return EarlyRead(
                    route: APIOperation.listRiderTrips.path, answer: .computed { plainResponse("computed") })
            case "/fail":
                return EarlyRead(
                    route: APIOperation.listRiderTrips.path,
                    answer: .computed { throw TripHistoryError.unavailable(retryAfterSeconds: 1) })
            default: return nil
            }
        }
    }

    private static func stubChannel() throws -> EmbeddedChannel {
        EmbeddedChannel(handler: stubHandler())
    }

    /// A channel whose loop is thread-safe, for computations, which finish on another thread.
    private static func stubAsyncChannel() async throws -> NIOAsyncTestingChannel {
        let channel = try await NIOAsyncTestingChannel { channel in
            try channel.pipeline.syncOperations.addHandler(stubHandler())
        }
        // Answers are written only to a connection that is still open.
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080))
        return channel
    }

    /// An answer the handler wrote as bytes (its head, then its body when `Content-Length` announces one), read
    /// back as a client reads it.
    struct WrittenAnswer {
        let status: HTTPResponse.Status
        let fields: [String: String]
        let body: String

        /// Reads the head's status line and fields; `body` is read only when the head announces one.
        init(head: ByteBuffer, body: () throws -> ByteBuffer) throws {
            let text = String(buffer: head)
            #expect(text.hasSuffix("\r\n\r\n"), "a head ends with an empty line")
            let lines = text.split(separator: "\r\n", omittingEmptySubsequences: true)
            let statusLine = try #require(lines.first).split(separator: " ", maxSplits: 2)
            #expect(statusLine.first == "HTTP/1.1")
            status = HTTPResponse.Status(code: try #require(Int(statusLine[1])))
            var fields: [String: String] = [:]
            for line in lines.dropFirst() {
                let parts = line.split(separator: ": ", maxSplits: 1)
                fields[String(parts[0]).lowercased()] = parts.count > 1 ? String(parts[1]) : ""
            }
            self.fields = fields
            let length = Int(fields["content-length"] ?? "0") ?? 0
            self.body = length == 0 ? "" : String(buffer: try body())
        }
    }

    /// Unwraps a write of bytes.
    private static func bytes(_ data: IOData?) throws -> ByteBuffer {
        guard case .byteBuffer(let buffer) = try #require(data) else { throw WrongWrite() }
        return buffer
    }

    private struct WrongWrite: Error {}

    /// The next answer written here, on a channel whose computations finish on another thread.
    private static func nextResponse(_ channel: NIOAsyncTestingChannel) async throws -> (HTTPResponse.Status, String)? {
        let head = try bytes(try await channel.waitForOutboundWrite(as: IOData.self))
        let body = try bytes(try await channel.waitForOutboundWrite(as: IOData.self))
        let answer = try WrittenAnswer(head: head) { body }
        return (answer.status, answer.body)
    }

    /// The next answer written here.
    private static func nextAnswer(_ channel: EmbeddedChannel) throws -> WrittenAnswer {
        let head = try bytes(try channel.readOutbound(as: IOData.self))
        return try WrittenAnswer(head: head) { try bytes(try channel.readOutbound(as: IOData.self)) }
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

    private static func isHead(_ part: HTTPRequestPart?) -> Bool {
        if case .head = part { return true }
        return false
    }

    private static func isEnd(_ part: HTTPRequestPart?) -> Bool {
        if case .end = part { return true }
        return false
    }

    @Test func requestsPipelinedBehindAComputationWaitForItsAnswer() async throws {
        let channel = try await Self.stubAsyncChannel()
        // A hit and a request for the router, pipelined behind a computed read, arrive in the same batch.
        for path in ["/compute", "/hit", "/other"] {
            try await channel.writeInbound(Self.head(path))
            try await channel.writeInbound(HTTPRequestPart.end(nil))
        }
        #expect(try await Self.nextResponse(channel)?.1 == "computed")
        #expect(try await Self.nextResponse(channel)?.1 == "cached")
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
        let answer: @Sendable (HTTPRequest) -> EarlyRead? = { head in
            guard head.path == "/slow" else {
                return EarlyRead(
                    route: APIOperation.listRiderTrips.path,
                    answer: .stored(StoredResponse(response: Self.plainResponse("cached"))))
            }
            return EarlyRead(
                route: APIOperation.listRiderTrips.path,
                answer: .computed {
                    for await _ in gate { break }
                    return Self.plainResponse("slow")
                })
        }
        let reads = ReadCounter()
        let channel = try await NIOAsyncTestingChannel { channel in
            let handler = EarlyReadHandler(
                requestGuard: Self.guardOfTests(), metrics: RequestMetrics(factory: NOOPMetricsHandler.instance),
                logger: Logger(label: "test"), answer: answer)
            try channel.pipeline.syncOperations.addHandlers([reads, handler])
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
        #expect(try await Self.nextResponse(channel)?.1 == "slow")
        for _ in 0..<8 {
            #expect(try await Self.nextResponse(channel)?.1 == "cached")
        }
        try await channel.testingEventLoop.executeInContext {}
        #expect(reads.count == before + 1, "the deferred read is made once the held requests are answered")
        #expect(try await channel.finish().isClean)
    }

    @Test func aFailedComputationIsAnsweredWithItsProblemAndTheRequestsBehindItFollowInOrder() async throws {
        let channel = try await Self.stubAsyncChannel()
        for path in ["/fail", "/hit", "/other"] {
            try await channel.writeInbound(Self.head(path))
            try await channel.writeInbound(HTTPRequestPart.end(nil))
        }
        // The failure is answered here with its problem, never passed on; the hit follows, then the router's.
        let failed = try #require(try await Self.nextResponse(channel))
        #expect(failed.0 == .serviceUnavailable)
        #expect(failed.1.contains("\"code\":\"unavailable\""))
        #expect(try await Self.nextResponse(channel)?.1 == "cached")
        #expect(try await Self.nextPassedOn(channel) == "/other")
        try await Self.answerAsRouter(channel, .ok)
        #expect(try await channel.finish().isClean)
    }

    @Test func pipelinedRequestsBehindOnesPassedOnArePassedOnInOrderUntilAllAreAnswered() throws {
        let channel = try Self.stubChannel()
        let handler = try channel.pipeline.syncOperations.handler(type: EarlyReadHandler.self)
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
        #expect(Self.isPassingOn(handler.state, unanswered: 3, receiving: false))
        #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil)
        // The router answers them one by one; only after the last does the handler take requests again.
        for remaining in [2, 1] {
            try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
            try channel.writeOutbound(HTTPResponsePart.end(nil))
            #expect(Self.isPassingOn(handler.state, unanswered: remaining, receiving: false))
        }
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        #expect(Self.isIdle(handler.state))
        while try channel.readOutbound(as: HTTPResponsePart.self) != nil {}
        try channel.writeInbound(Self.head("/hit"))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil, "a hit is not passed on")
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(Self.isIdle(handler.state))
        #expect(try Self.nextAnswer(channel).status == .ok, "the hit's answer")
        #expect(try channel.finish().isClean)
    }

    @Test func aRequestAnsweredByTheRouterBeforeItsEndFreesTheConnectionOnceItEnds() throws {
        let channel = try Self.stubChannel()
        let handler = try channel.pipeline.syncOperations.handler(type: EarlyReadHandler.self)
        try channel.writeInbound(Self.head("/miss"))
        #expect(Self.isPassingOn(handler.state, unanswered: 1, receiving: true))
        // The router answers before the request's end arrived (an early refusal): still receiving.
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        #expect(Self.isPassingOn(handler.state, unanswered: 0, receiving: true))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(Self.isIdle(handler.state))
        #expect(Self.isHead(try channel.readInbound(as: HTTPRequestPart.self)))
        #expect(Self.isEnd(try channel.readInbound(as: HTTPRequestPart.self)))
        // With nothing outstanding, a hit is answered here again.
        try channel.writeInbound(Self.head("/hit"))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil)
        _ = try channel.readOutbound(as: HTTPResponsePart.self)
        #expect(try Self.nextAnswer(channel).status == .ok, "the hit's answer")
        _ = try channel.finish()
    }

    private static func isIdle(_ state: EarlyReadHandler.State) -> Bool {
        if case .idle = state { return true }
        return false
    }

    private static func isPassingOn(_ state: EarlyReadHandler.State, unanswered: Int, receiving: Bool) -> Bool {
        if case .passingOn(unanswered, receiving) = state { return true }
        return false
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
        #expect(try channel.readOutbound(as: IOData.self) == nil, "answered only once the request has ended")
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil)
        let answer = try Self.nextAnswer(channel)
        #expect(answer.status == .ok)
        #expect(answer.fields["content-length"] == "6")
        #expect(answer.fields["x-request-id"]?.isEmpty == false)
        #expect(answer.body == "cached")
        #expect(try channel.readOutbound(as: IOData.self) == nil, "nothing follows the body")
        #expect(try channel.finish().isClean)
    }

    @Test func theBodyOfTheRoutersResponseToAHEADIsDroppedAndAGETsIsKeptInTheirOrder() throws {
        let channel = try Self.stubChannel()
        // Both pipelined and passed on before the router answers either.
        for method in [HTTPRequest.Method.head, .get] {
            try channel.writeInbound(
                HTTPRequestPart.head(HTTPRequest(method: method, scheme: nil, authority: "localhost", path: "/miss")))
            try channel.writeInbound(HTTPRequestPart.end(nil))
        }
        while try channel.readInbound(as: HTTPRequestPart.self) != nil {}
        var written: [String] = []
        for _ in 0..<2 {
            try channel.writeOutbound(
                HTTPResponsePart.head(HTTPResponse(status: .notFound, headerFields: [.contentLength: "7"])))
            try channel.writeOutbound(HTTPResponsePart.body(ByteBuffer(string: "missing")))
            try channel.writeOutbound(HTTPResponsePart.end(nil))
            while let part = try channel.readOutbound(as: HTTPResponsePart.self) {
                switch part {
                case .head(let head): written.append("head \(head.status.code)")
                case .body(let body): written.append("body \(String(buffer: body))")
                case .end: written.append("end")
                }
            }
        }
        #expect(written == ["head 404", "end", "head 404", "body missing", "end"])
        #expect(try channel.finish().isClean)
    }

    /// Heads as the service writes them: each field a `Name: value` line, in order.
    private static let heads: [(HTTPResponse.Status, [String])] = [
        (
            .ok,
            [
                "Content-Type: application/json", "ETag: \"NKrbx9tGFVvGLO_Zl3xcZA\"",
                "Link: </v1/riders/17/trips?limit=20&cursor=AQAB>; rel=\"next\"", "Content-Length: 6",
                "RateLimit: \"rider\";r=29;t=1", "X-Content-Type-Options: nosniff",
            ]
        ),
        (.notModified, ["ETag: \"abc\"", "Date: Sat, 28 Nov 2026 06:34:15 GMT"]),
        (.tooManyRequests, ["Content-Type: application/problem+json", "Retry-After: 1", "Content-Length: 2"]),
    ]

    @Test(arguments: heads)
    func aHeadWrittenHereIsTheBytesNIOsEncoderWritesForIt(status: HTTPResponse.Status, lines: [String]) throws {
        var headerFields = HTTPFields()
        for line in lines {
            let parts = line.split(separator: ": ", maxSplits: 1).map(String.init)
            headerFields.append(HTTPField(name: try #require(HTTPField.Name(parts[0])), value: parts[1]))
        }
        let encoder = EmbeddedChannel()
        try encoder.pipeline.syncOperations.addHandlers([
            HTTPResponseEncoder(configuration: .init()), HTTP1ToHTTPServerCodec(secure: false),
        ])
        try encoder.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: status, headerFields: headerFields)))
        var encoded = try #require(try encoder.readOutbound(as: IOData.self).flatMap { try Self.bytes($0) })
        while let more = try encoder.readOutbound(as: IOData.self) {
            encoded.writeImmutableBuffer(try Self.bytes(more))
        }
        let written = HTTP1ResponseHead.bytes(status: status, fields: headerFields, allocator: ByteBufferAllocator())
        #expect(String(buffer: written) == String(buffer: encoded))
        _ = try encoder.finish()
    }

    @Test func answersWrittenHereAndTheRoutersResponsesShareAConnectionInTheirOrderAndHEADsCarryNoBody() async throws {
        let api = await Self.cachedAPI(InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 5)))
        let token = try await api.riderToken(1)
        let answers = Answers()
        try await api.testLive(onEarlyAnswer: answers.record) { client in
            // The router verifies a token the first time it is seen; afterwards the handler answers reads.
            try await client.execute(uri: "/v1/riders/1/trips?limit=2", method: .get, headers: Self.headers(token)) {
                #expect($0.status == .ok)
            }
            let before = answers.stored + answers.computed
            let connection = try await RawConnection.open(port: try #require(client.port))
            let host = "Host: test\r\n"
            let owner = "\(host)Authorization: Bearer \(token)\r\n"
            try await connection.send(
                "GET /v1/riders/1/trips?limit=2 HTTP/1.1\r\n\(owner)\r\n"
                    + "HEAD /v1/nowhere HTTP/1.1\r\n\(host)\r\n"
                    + "GET /healthz HTTP/1.1\r\n\(host)\r\n"
                    + "HEAD /v1/riders/1/trips?limit=2 HTTP/1.1\r\n\(owner)\r\n"
                    + "GET /v1/nowhere HTTP/1.1\r\n\(host)\r\n")
            let list = try #require(await connection.readResponse())
            #expect(list.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(list.contains("\r\n\r\n{\"data\":["))
            #expect(answers.stored + answers.computed == before + 1, "the first read was answered here")
            let missingHead = try #require(await connection.readResponse(toHEAD: true))
            #expect(missingHead.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
            #expect(missingHead.hasSuffix("\r\n\r\n"))
            let health = try #require(await connection.readResponse())
            #expect(health.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(health.hasSuffix("\r\n\r\n{\"status\":\"ok\"}"))
            let listHead = try #require(await connection.readResponse(toHEAD: true))
            #expect(listHead.hasPrefix("HTTP/1.1 200 OK\r\n"))
            let missing = try #require(await connection.readResponse())
            #expect(missing.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
            #expect(missing.contains("\"code\":\"not_found\""))
            // Had a HEAD's response carried a body, its bytes would have been read as the next response's start.
            #expect(await connection.readResponse(within: .milliseconds(300)) == nil, "nothing more was sent")
        }
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

    /// The early match of the route table names the operation the router routes a `GET` of the path to, with
    /// the path's ids; the streamed export and the receipt are there too, so that a request for them is left to
    /// the router.
    @Test(
        arguments: [
            ("/v1/riders/7/trips", APIOperation.listRiderTrips, RiderReadPath(riderID: "7")),
            ("/v1/riders/7/trips/12", .getRiderTrip, RiderReadPath(riderID: "7", tripID: "12")),
            ("/v1/riders/7/trips/changes", .listRiderTripChanges, RiderReadPath(riderID: "7")),
            ("/v1/riders/7/trips/export", .exportRiderTrips, RiderReadPath(riderID: "7")),
            ("/v1/riders/7/trips/12/receipt", .getTripReceipt, RiderReadPath(riderID: "7", tripID: "12")),
            ("/v1/trips/changes", .listTripChanges, RiderReadPath(riderID: nil)), ("/healthz", .health, nil),
            ("/v1/riders/7/trips/", nil, nil), ("/v1/riders//trips", nil, nil), ("/v1/riders/7/trip", nil, nil),
            ("/v1/trips", .listTrips, RiderReadPath(riderID: nil)), ("/v2/riders/7/trips", nil, nil),
            ("/v1/riders/7/trips/12/x", nil, nil), ("v1/riders/7/trips", nil, nil), ("/v1/riders/7", nil, nil),
        ] as [(String, APIOperation?, RiderReadPath?)])
    func pathsOfTheRouteTable(path: String, operation: APIOperation?, ids: RiderReadPath?) {
        let match = EarlyReadRoutes(answers: [:]).match(path[...])
        #expect(match?.operation == operation)
        if let ids { #expect(match?.path == ids) }
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
