public import CoreMetrics
public import Foundation
public import HTTPTypes
public import Hummingbird
import HummingbirdCore
public import HummingbirdTesting
import Logging
public import NIOCore
import NIOFoundationEssentialsCompat
public import Testing
public import Tracing
public import TripHistoryAPI
public import TripHistoryApp
public import TripHistoryCache
public import TripHistoryDomain
public import TripHistoryFakes
public import TripHistoryHTTP
import TripHistoryPresentation
public import TripHistoryWeb

/// The HTTP API wired around any repository, the way the composition root wires it, plus token helpers.
public struct TestAPI<Repository: TripRepository>: Sendable {
    public static var secret: [UInt8] { Array("test-secret-that-is-at-least-32-bytes-long".utf8) }

    public let repository: Repository
    public let tokens: AccessTokens
    public let cursors: CursorCodec
    /// The export slots of analysts, to check that slots are given back.
    public let exportSlots: ConcurrencySlots
    /// The export slots of riders' own exports.
    public let riderExportSlots: ConcurrencySlots
    public let statsSlots: ConcurrencySlots
    /// The metrics scrape's own listener, when the API was built with a metrics renderer.
    public let metricsListener: MetricsListener?
    /// The rate limits, when the API was built with them.
    public let rateLimits: RateLimitGate?
    /// The origins granted cross-origin access, when the API was built with any.
    public let cors: CORSPolicy?
    /// The forwarders whose `X-Forwarded-For` or `Forwarded` names the client, for the router and the live
    /// server's connection caps alike.
    public let trustedForwarders: TrustedForwarders
    private let makeRouter: @Sendable (RequestMetrics) -> Router<TripHistoryRequestContext>
    private let earlyAnswer: @Sendable (HTTPRequest) -> EarlyRead?
    /// The server's `http1(metrics:logger:connectionLimits:trustedProxies:answer:)`, as `serve` calls it.
    private let makeHTTP1:
        @Sendable (
            RequestMetrics, ConnectionLimits, TrustedProxies, @escaping @Sendable (HTTPRequest) -> EarlyRead?
        ) -> HTTPServerBuilder

    /// The API with analyst routes over an empty store; see the other initializer.
    public init(
        repository: Repository, metrics: (@Sendable () -> [UInt8])? = nil,
        rateLimitMetrics: any MetricsFactory = NOOPMetricsHandler.instance,
        now: @escaping @Sendable () -> UInt64 = RateLimits.monotonicNanoseconds,
        settings: (inout TripHistoryServer<Repository, InMemoryAnalystTripRepository>.Settings) -> Void = { _ in }
    ) async {
        await self.init(
            repository: repository, analystRepository: InMemoryAnalystTripRepository(trips: []), metrics: metrics,
            rateLimitMetrics: rateLimitMetrics, now: now, settings: settings)
    }

    /// The API over `repository` and `analystRepository`, built by `TripHistoryServer` exactly as `serve` builds
    /// it, from one settings value: the tests' defaults (`Self.secret`, the repository's `openapi.yaml`, always
    /// ready) changed by `settings`, as in `TestAPI(repository: r, settings: { $0.cache = TripResponseCache() })`. The
    /// other parameters are the tests' hooks: a metrics renderer for `testMetrics`, the rate limits' metrics and
    /// their monotonic clock.
    public init<AnalystRepository: AnalystTripRepository>(
        repository: Repository, analystRepository: AnalystRepository, metrics: (@Sendable () -> [UInt8])? = nil,
        rateLimitMetrics: any MetricsFactory = NOOPMetricsHandler.instance,
        now: @escaping @Sendable () -> UInt64 = RateLimits.monotonicNanoseconds,
        settings: (inout TripHistoryServer<Repository, AnalystRepository>.Settings) -> Void = { _ in }
    ) async {
        var serverSettings = TripHistoryServer<Repository, AnalystRepository>.Settings(
            secret: Self.secret, openAPIDocument: Self.repositoryOpenAPIDocument, isReady: { true })
        settings(&serverSettings)
        self.repository = repository
        let server = await TripHistoryServer(
            repository: repository, analystRepository: analystRepository, settings: serverSettings,
            metrics: rateLimitMetrics, now: now)
        tokens = server.tokens
        metricsListener = metrics.map(MetricsListener.init(exposition:))
        cursors = server.cursors
        exportSlots = server.exportLimits.analystSlots
        riderExportSlots = server.exportLimits.riderSlots
        statsSlots = server.statsSlots
        self.rateLimits = server.rateLimits
        self.cors = server.cors
        self.trustedForwarders = server.trustedForwarders
        makeRouter = { metrics in server.router(metrics: metrics) }
        earlyAnswer = server.earlyAnswer(to:)
        makeHTTP1 = { metrics, limits, proxies, answer in
            server.http1(
                metrics: metrics, logger: Logger(label: "test"), connectionLimits: limits, trustedProxies: proxies,
                answer: answer)
        }
    }

    /// The router as the composition root builds it, for tests that run it on a real socket.
    public func router() -> Router<TripHistoryRequestContext> {
        makeRouter(RequestMetrics(factory: NOOPMetricsHandler.instance))
    }

    /// Runs `body` against the router in memory.
    public func test<Value: Sendable>(
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        try await Application(router: router()).test(.router, body)
    }

    /// Runs `body` against the metrics listener's router in memory; fails the test if the API was built without
    /// a metrics renderer.
    public func testMetrics<Value: Sendable>(
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        let listener = try #require(metricsListener, "the API was built without a metrics renderer")
        return try await Application(router: listener.router()).test(.router, body)
    }

    /// Runs `body` against a real server on a loopback socket, wired like `serve`: the early-read handler
    /// answers the liveness probe and the rider reads it can check before the router, unless `earlyReads` is
    /// false. The router's and the handler's responses are counted in `metrics`; `onEarlyAnswer` is told how
    /// the handler answers each request it takes. Connections from `trustedProxies` (none by default) must
    /// start with a PROXY protocol header; those from the API's `trustedForwarders` name their clients in a
    /// field. The connection guards enforce `connectionLimits`; by
    /// default the service's limits with head and idle timeouts far longer than a test, since the test
    /// client has one connection, opened at the start, that a busy machine must not see closed between
    /// requests.
    public func testLive<Value: Sendable>(
        earlyReads: Bool = true, metrics: any MetricsFactory = NOOPMetricsHandler.instance,
        connectionLimits: ConnectionLimits = ConnectionLimits(headTimeout: .seconds(300), idleTimeout: .seconds(300)),
        trustedProxies: TrustedProxies = TrustedProxies(),
        onEarlyAnswer: @escaping @Sendable (EarlyAnswer) -> Void = { _ in },
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        let requestMetrics = RequestMetrics(factory: metrics)
        let early = earlyAnswer
        let answer: @Sendable (HTTPRequest) -> EarlyRead? = { head in
            guard earlyReads, let read = early(head) else { return nil }
            onEarlyAnswer(read.answer)
            return read
        }
        let application = Application(
            router: makeRouter(requestMetrics),
            server: makeHTTP1(requestMetrics, connectionLimits, trustedProxies, answer)
        )
        return try await application.test(.live, body)
    }

    public func riderToken(_ riderID: Int64) async throws -> String {
        try await tokens.issue(role: .rider, subject: String(riderID), timeToLive: .seconds(600))
    }

    public func analystToken(subject: String = "analyst") async throws -> String {
        try await tokens.issue(role: .analyst, subject: subject, timeToLive: .seconds(600))
    }

    public func serviceToken() async throws -> String {
        try await tokens.issue(role: .service, subject: "ingest", timeToLive: .seconds(600))
    }

    public func privacyToken(subject: String = "privacy-desk") async throws -> String {
        try await tokens.issue(role: .privacy, subject: subject, timeToLive: .seconds(600))
    }

    /// The headers of a `POST /v1/trips` as a backend service sends it: its token, a JSON body and, when
    /// given, an `Idempotency-Key`.
    public func recordHeaders(idempotencyKey: String? = nil) async throws -> HTTPFields {
        var headers = Self.bearer(try await serviceToken())
        headers[.contentType] = "application/json"
        if let idempotencyKey { headers[HTTPField.Name("Idempotency-Key")!] = idempotencyKey }
        return headers
    }

    /// The repository's own `openapi.yaml`, so tests see the document the service really serves.
    public static var repositoryOpenAPIDocument: [UInt8] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? Array(Data(contentsOf: root.appendingPathComponent("openapi.yaml")))) ?? []
    }

    public static func bearer(_ token: String) -> HTTPFields {
        [.authorization: "Bearer \(token)"]
    }
}

/// A JSON response body, parsed for assertions.
public struct JSONBody: @unchecked Sendable {
    public let value: Any

    public init(_ buffer: ByteBuffer) throws {
        value = try JSONSerialization.jsonObject(with: Data(buffer: buffer), options: [.fragmentsAllowed])
    }

    init(empty: Void) {
        value = [String: Any]()
    }

    public var object: [String: Any] { value as? [String: Any] ?? [:] }

    /// The member at a dotted path such as `page.next_cursor`; nil when absent, NSNull when JSON null.
    public subscript(_ path: String) -> Any? {
        var current: Any? = value
        for part in path.split(separator: ".") {
            current = (current as? [String: Any])?[String(part)]
        }
        return current
    }

    public func string(_ path: String) -> String? { self[path] as? String }

    public var trips: [[String: Any]] { object["data"] as? [[String: Any]] ?? [] }
    public var tripIDs: [String] { trips.compactMap { $0["id"] as? String } }
}

extension TestResponse {
    /// The body parsed as JSON; a body that is not JSON is recorded as a test failure.
    public func json(sourceLocation: SourceLocation = #_sourceLocation) -> JSONBody {
        do {
            return try JSONBody(body)
        } catch {
            Issue.record("response body is not JSON: \(error)", sourceLocation: sourceLocation)
            return JSONBody(empty: ())
        }
    }
}

extension HTTPFields {
    /// These fields plus `other`'s, `other` winning.
    public func merging(_ other: HTTPFields) -> HTTPFields {
        var result = self
        for field in other { result[field.name] = field.value }
        return result
    }
}
