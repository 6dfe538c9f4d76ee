public import Hummingbird
import HummingbirdCore
public import Logging
public import TripHistoryAPI
public import TripHistoryDomain
public import TripHistoryWeb

/// The HTTP server from the parts the composition root built: the router and the early-read handler around
/// the API's operations. `serve` and the tests build it through the same function of the composition root, so
/// both run the same wiring.
public struct TripHistoryServer<Repository: TripRepository, AnalystRepository: AnalystTripRepository>: Sendable {
    public let riderTrips: RiderTrips<Repository>
    public let riderErasures: RiderErasures<Repository>
    public let riderExports: RiderExports<Repository>
    public let analystTrips: AnalystTrips<AnalystRepository>
    /// Issues and verifies the bearer tokens the API accepts.
    public let tokens: AccessTokens
    public let cursors: CursorCodec
    /// The export slots of analysts and of riders, and the exports' time limit.
    public let exportLimits: ExportLimits
    /// The stats limit of the analyst routes.
    public let statsSlots: ConcurrencySlots
    /// Where both paths decide rate limits, when on.
    public let rateLimits: RateLimitGate?
    /// The origins granted cross-origin access, when any.
    public let cors: CORSPolicy?
    /// The forwarders whose fields name a request's client; none reads no such field.
    public let trustedForwarders: TrustedForwarders
    /// The request spans, when tracing is on.
    public let tracing: RequestTracing?
    /// The route table's handlers, and the early-read handler's match of it.
    let routes: APIRoutes<Repository, AnalystRepository>
    let webPages: WebPages?

    /// The server from parts the composition root built (`TripHistoryServer+Build.swift` in `TripHistoryApp`).
    public init(
        riderTrips: RiderTrips<Repository>, riderErasures: RiderErasures<Repository>,
        riderExports: RiderExports<Repository>, analystTrips: AnalystTrips<AnalystRepository>, tokens: AccessTokens,
        cursors: CursorCodec, exportLimits: ExportLimits, statsSlots: ConcurrencySlots, rateLimits: RateLimitGate?,
        cors: CORSPolicy?, trustedForwarders: TrustedForwarders, tracing: RequestTracing?,
        operationalRoutes: OperationalRoutes, webPages: WebPages?
    ) {
        self.riderTrips = riderTrips
        self.riderErasures = riderErasures
        self.riderExports = riderExports
        self.analystTrips = analystTrips
        self.tokens = tokens
        self.cursors = cursors
        self.exportLimits = exportLimits
        self.statsSlots = statsSlots
        self.rateLimits = rateLimits
        self.cors = cors
        self.trustedForwarders = trustedForwarders
        self.tracing = tracing
        self.webPages = webPages
        routes = APIRoutes(
            riderTrips: riderTrips, riderErasures: riderErasures, riderExports: riderExports,
            analystTrips: analystTrips, operational: operationalRoutes)
    }

    /// The router: when forwarders are trusted, `ForwardedClientMiddleware` outermost, so everything after it
    /// sees the client they name; then `ResponseFinishingMiddleware`, so every response, the router's own 404s
    /// included, is finished by the same `ResponseFinisher` as the early-read handler's (rate limits when on,
    /// request id, CORS fields, request span when tracing is on, errors as problems, counted in `metrics` per
    /// route, method and status); then CORS preflights, when origins are configured; then the routes, each a
    /// call into the API module.
    public func router(metrics: RequestMetrics) -> Router<TripHistoryRequestContext> {
        let router = Router(context: TripHistoryRequestContext.self, options: .autoGenerateHeadEndpoints)
        if !trustedForwarders.isEmpty {
            router.add(middleware: ForwardedClientMiddleware(forwarders: trustedForwarders))
        }
        router.add(
            middleware: ResponseFinishingMiddleware(
                finisher: ResponseFinisher(metrics: metrics, cors: cors, tracing: tracing, rateLimits: rateLimits)))
        if let cors { router.add(middleware: CORSPreflightMiddleware(policy: cors)) }
        routes.register(on: router)
        webPages?.register(on: router)
        return router
    }

    /// How a request head is answered before the router: the liveness probe, or a rider read the route table
    /// answers early (stored or computed); nil for anything the router must answer. The early-read handler's
    /// one entry point.
    @Sendable public func earlyAnswer(to head: HTTPRequest) -> EarlyRead? {
        if let alive = OperationalRoutes.livenessResponse(to: head) { return alive }
        return routes.earlyReads.answer(to: head)
    }

    /// HTTP/1.1 with the connection guards enforcing `connectionLimits` on every connection (a trusted
    /// forwarder's connections under the global cap only), the PROXY protocol header read first on connections
    /// from `trustedProxies`, and the early-read handler after them, counting in `metrics` like the router,
    /// adding the CORS fields like the router, and logging unexpected failures to `logger`. `answer` is a test's
    /// hook around `earlyAnswer(to:)`, to observe the early answers or turn them off; nil (the default) is
    /// `earlyAnswer(to:)` itself.
    public func http1(
        metrics: RequestMetrics, logger: Logger, connectionLimits: ConnectionLimits = ConnectionLimits(),
        trustedProxies: TrustedProxies = TrustedProxies(),
        answer: (@Sendable (HTTPRequest) -> EarlyRead?)? = nil
    ) -> HTTPServerBuilder {
        .guardedHTTP1(
            limits: connectionLimits, trustedProxies: trustedProxies, trustedForwarders: trustedForwarders,
            logger: logger, metrics: metrics, cors: cors,
            tracing: tracing, rateLimits: rateLimits, answer: answer ?? earlyAnswer(to:))
    }
}
