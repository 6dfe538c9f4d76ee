public import Foundation
public import Hummingbird
import HummingbirdCore
public import Logging
public import Metrics
public import Tracing
public import TripHistoryAPI
public import TripHistoryCache
public import TripHistoryDomain
import TripHistoryPresentation
public import TripHistoryWeb

/// The HTTP server's parts wired from the repositories and settings: the API's operations, the router and
/// the early-read handler. `serve` builds its server through this type and so do the tests, so both run the
/// same wiring.
public struct TripHistoryServer<Repository: TripRepository, AnalystRepository: AnalystTripRepository>: Sendable {
    /// What the server is built with besides its repositories.
    public struct Settings: Sendable {
        /// The service secret: token and cursor keys are derived from it, and everything new is signed with it.
        public var secret: [UInt8]
        /// Secrets rotated out but still accepted: tokens and cursors signed with them verify until they are dropped.
        public var previousSecrets: [[UInt8]]
        /// The response cache of the rider reads; nil reads every response from the repository.
        public var cache: TripResponseCache?
        /// With `cache`, strict coherence across instances: a cached response is served only once this fence
        /// has passed, and the cache is bypassed when it fails. Nil serves warm hits at once (one instance).
        public var cacheFence: (any ChangeFeedFence)?
        /// The analyst limits; the same values are given to the analyst use cases.
        public var analystLimits: AnalystQueryLimits
        /// Exports streaming at once; more get 429.
        public var maximumConcurrentExports: Int
        /// Exports one analyst may stream at once; more get 429.
        public var maximumExportsPerAnalyst: Int
        /// Riders' exports of their own trips streaming at once, one per rider, in slots apart from the
        /// analysts'; more get 429.
        public var maximumConcurrentRiderExports: Int
        /// How long one export may stream before it is ended.
        public var exportTimeLimit: Duration
        /// Stats queries one analyst may run at once; more get 429 (the analyst pool bounds them in all).
        public var maximumStatsPerAnalyst: Int
        /// Trips read per export batch.
        public var exportBatchSize: Int
        /// The `openapi.yaml` served at `GET /openapi.yaml`.
        public var openAPIDocument: [UInt8]
        /// Whether the database is reachable and current, for `GET /readyz`.
        public var isReady: @Sendable () async -> Bool
        /// Whether the read replica is up, reported by `GET /readyz`; nil when none is configured.
        public var isReaderUp: (@Sendable () -> Bool)?
        /// The explorer and API reference pages; nil serves neither.
        public var webPages: WebPages?
        /// The rate limits per caller; nil limits nothing and sends no rate-limit fields.
        public var rateLimits: RateLimits.Configuration?
        /// The origins granted cross-origin access; nil (the default) sends no CORS fields.
        public var cors: CORSPolicy?
        /// The forwarders whose `X-Forwarded-For` or `Forwarded` names a request's client, for the router and the
        /// connection caps alike; none (the default) reads no such field.
        public var trustedForwarders: TrustedForwarders
        /// The identity provider whose tokens are accepted beside the service's own; nil accepts only those.
        public var identityProvider: IdentityProviderTokens?
        /// The tracer of request, cache, rate-limit and export batch spans; nil (the default) traces nothing and
        /// costs nothing.
        public var tracer: (any Tracer)?
        /// Which requests are left out before `tracer` sees them, for a ratio sampler; nil leaves it to `tracer`.
        public var headSampler: HeadSampler?
        /// The bounds of tips, refunds and corrections that depend on the deployment.
        public var adjustmentPolicy: AdjustmentPolicy
        /// Days the changes feed keeps changes: a `since` token older than this is refused with 410.
        public var changesRetentionDays: Int
        /// How long trips are kept: a trip requested before the retention's cutoff is refused; nil keeps all.
        public var tripRetention: TripRetention?
        /// How far from now a recorded trip may have been requested.
        public var recordingHorizon: RecordingHorizon
        /// The clock of adjustment rules, the retention and feed tokens.
        public var now: @Sendable () -> Date

        public init(
            secret: [UInt8], previousSecrets: [[UInt8]] = [], cache: TripResponseCache? = nil,
            cacheFence: (any ChangeFeedFence)? = nil, analystLimits: AnalystQueryLimits = AnalystQueryLimits(),
            maximumConcurrentExports: Int = 2, maximumExportsPerAnalyst: Int = 1, maximumStatsPerAnalyst: Int = 2,
            maximumConcurrentRiderExports: Int = 4, exportTimeLimit: Duration = .seconds(1800),
            exportBatchSize: Int = ExportAnalystTrips<AnalystRepository>.defaultBatchSize,
            openAPIDocument: [UInt8], isReady: @escaping @Sendable () async -> Bool, webPages: WebPages? = nil,
            isReaderUp: (@Sendable () -> Bool)? = nil,
            rateLimits: RateLimits.Configuration? = nil, cors: CORSPolicy? = nil,
            trustedForwarders: TrustedForwarders = TrustedForwarders(),
            identityProvider: IdentityProviderTokens? = nil, tracer: (any Tracer)? = nil,
            headSampler: HeadSampler? = nil,
            adjustmentPolicy: AdjustmentPolicy = AdjustmentPolicy(), changesRetentionDays: Int = 30,
            tripRetention: TripRetention? = nil, recordingHorizon: RecordingHorizon = .standard,
            now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.tracer = tracer
            self.headSampler = headSampler
            self.adjustmentPolicy = adjustmentPolicy
            self.changesRetentionDays = changesRetentionDays
            self.tripRetention = tripRetention
            self.recordingHorizon = recordingHorizon
            self.now = now
            self.cors = cors
            self.trustedForwarders = trustedForwarders
            self.identityProvider = identityProvider
            self.isReaderUp = isReaderUp
            self.webPages = webPages
            self.rateLimits = rateLimits
            self.secret = secret
            self.previousSecrets = previousSecrets
            self.cache = cache
            self.cacheFence = cacheFence
            self.analystLimits = analystLimits
            self.maximumConcurrentExports = maximumConcurrentExports
            self.maximumExportsPerAnalyst = maximumExportsPerAnalyst
            self.maximumStatsPerAnalyst = maximumStatsPerAnalyst
            self.maximumConcurrentRiderExports = maximumConcurrentRiderExports
            self.exportTimeLimit = exportTimeLimit
            self.exportBatchSize = exportBatchSize
            self.openAPIDocument = openAPIDocument
            self.isReady = isReady
        }
    }

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

    /// Rate-limit metrics are recorded in `metrics`: the global metrics system unless a test passes its own.
    public init(
        repository: Repository, analystRepository: AnalystRepository, settings: Settings,
        metrics: any MetricsFactory = MetricsSystem.factory,
        now: @escaping @Sendable () -> UInt64 = RateLimits.monotonicNanoseconds
    ) async {
        let secrets = SigningSecrets(current: settings.secret, previous: settings.previousSecrets)
        let tokens = await AccessTokens(secrets: secrets, identityProvider: settings.identityProvider)
        let rateLimits = settings.rateLimits.map {
            RateLimits(configuration: $0, tokens: tokens, factory: metrics, now: now)
        }
        cors = settings.cors
        trustedForwarders = settings.trustedForwarders
        tracing = settings.tracer.map { RequestTracing(tracer: $0, headSampler: settings.headSampler) }
        self.rateLimits = rateLimits.map { RateLimitGate(limits: $0, tracer: settings.tracer) }
        let cursors = CursorCodec(secrets: secrets)
        let presenter = TripPresenter()
        let exportLimits = ExportLimits(
            analystSlots: ConcurrencySlots(
                capacity: settings.maximumConcurrentExports, perCaller: settings.maximumExportsPerAnalyst),
            riderSlots: ConcurrencySlots(capacity: settings.maximumConcurrentRiderExports, perCaller: 1),
            timeLimit: settings.exportTimeLimit)
        let statsSlots = ConcurrencySlots(capacity: .max, perCaller: settings.maximumStatsPerAnalyst)
        let limits = settings.analystLimits
        self.tokens = tokens
        self.cursors = cursors
        self.exportLimits = exportLimits
        self.statsSlots = statsSlots
        riderTrips = RiderTrips(
            listRiderTrips: ListRiderTrips(repository: repository), getTrip: GetTrip(repository: repository),
            recordTrip: RecordTrip(
                repository: repository, retention: settings.tripRetention, horizon: settings.recordingHorizon,
                now: settings.now),
            recordAdjustment: RecordAdjustment(
                repository: repository, policy: settings.adjustmentPolicy, now: settings.now),
            listTripChanges: ListTripChanges(repository: repository), presenter: presenter,
            localeNegotiator: LocaleNegotiator(), tokens: tokens, cursors: cursors,
            syncTokens: SyncTokenCodec(secrets: secrets),
            changesRetention: TimeInterval(settings.changesRetentionDays) * 86_400, cache: settings.cache,
            fence: settings.cacheFence, tracer: settings.tracer, now: settings.now
        )
        riderErasures = RiderErasures(
            eraseRider: EraseRider(repository: repository), tokens: tokens, cache: settings.cache)
        riderExports = RiderExports(
            exportTrips: ExportRiderTrips(repository: repository), exportLimits: exportLimits, presenter: presenter,
            localeNegotiator: LocaleNegotiator(), tokens: tokens, tracer: settings.tracer)
        analystTrips = AnalystTrips(
            listTrips: ListAnalystTrips(repository: analystRepository, limits: limits),
            exportTrips: ExportAnalystTrips(
                repository: analystRepository, limits: limits, batchSize: settings.exportBatchSize),
            getStats: GetTripStats(repository: analystRepository, limits: limits),
            listChanges: ListAnalystTripChanges(repository: analystRepository), limits: limits,
            exportLimits: exportLimits, statsSlots: statsSlots, presenter: presenter,
            localeNegotiator: LocaleNegotiator(), tokens: tokens, cursors: cursors,
            syncTokens: SyncTokenCodec(secrets: secrets),
            changesRetention: TimeInterval(settings.changesRetentionDays) * 86_400, tracer: settings.tracer,
            now: settings.now
        )
        webPages = settings.webPages
        routes = APIRoutes(
            riderTrips: riderTrips, riderErasures: riderErasures, riderExports: riderExports,
            analystTrips: analystTrips,
            operational: OperationalRoutes(
                isReady: settings.isReady, isReaderUp: settings.isReaderUp, openAPIDocument: settings.openAPIDocument)
        )
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
    /// adding the CORS fields like the router, and logging unexpected failures to `logger`.
    public func http1(
        metrics: RequestMetrics, logger: Logger, connectionLimits: ConnectionLimits = ConnectionLimits(),
        trustedProxies: TrustedProxies = TrustedProxies()
    ) -> HTTPServerBuilder {
        .guardedHTTP1(
            limits: connectionLimits, trustedProxies: trustedProxies, trustedForwarders: trustedForwarders,
            logger: logger, metrics: metrics, cors: cors,
            tracing: tracing, rateLimits: rateLimits, answer: earlyAnswer(to:))
    }
}
