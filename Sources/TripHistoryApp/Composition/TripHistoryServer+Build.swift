public import Foundation
public import Metrics
public import Tracing
public import TripHistoryAPI
public import TripHistoryCache
public import TripHistoryDomain
public import TripHistoryHTTP
import TripHistoryPresentation
public import TripHistoryWeb

// The use cases and the API's operations are built here, in the composition root, and given to the server by
// its initializer; `buildApplication` and the tests' `TestAPI` both build the server through this one function.
extension TripHistoryServer {
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
}

extension TripHistoryServer {
    /// The server for `repository` and `analystRepository`: its use cases, tokens, cursors and limits built
    /// from `settings`. Rate-limit metrics are recorded in `metrics`, the global metrics system unless a test
    /// passes its own, on the clock `now`.
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
        let cursors = CursorCodec(secrets: secrets)
        let presenter = TripPresenter()
        let exportLimits = ExportLimits(
            analystSlots: ConcurrencySlots(
                capacity: settings.maximumConcurrentExports, perCaller: settings.maximumExportsPerAnalyst),
            riderSlots: ConcurrencySlots(capacity: settings.maximumConcurrentRiderExports, perCaller: 1),
            timeLimit: settings.exportTimeLimit)
        let statsSlots = ConcurrencySlots(capacity: .max, perCaller: settings.maximumStatsPerAnalyst)
        let limits = settings.analystLimits
        let riderTrips = RiderTrips(
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
        let riderErasures = RiderErasures(
            eraseRider: EraseRider(repository: repository), tokens: tokens, cache: settings.cache)
        let riderExports = RiderExports(
            exportTrips: ExportRiderTrips(repository: repository), exportLimits: exportLimits, presenter: presenter,
            localeNegotiator: LocaleNegotiator(), tokens: tokens, tracer: settings.tracer)
        let analystTrips = AnalystTrips(
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
        self.init(
            riderTrips: riderTrips, riderErasures: riderErasures, riderExports: riderExports,
            analystTrips: analystTrips, tokens: tokens, cursors: cursors, exportLimits: exportLimits,
            statsSlots: statsSlots, rateLimits: rateLimits.map { RateLimitGate(limits: $0, tracer: settings.tracer) },
            cors: settings.cors, trustedForwarders: settings.trustedForwarders,
            tracing: settings.tracer.map { RequestTracing(tracer: $0, headSampler: settings.headSampler) },
            operationalRoutes: OperationalRoutes(
                isReady: settings.isReady, isReaderUp: settings.isReaderUp,
                openAPIDocument: settings.openAPIDocument),
            webPages: settings.webPages
        )
    }
}

extension TripHistoryServer.Settings {
    /// The settings `serve` builds the server with: `configuration`'s, with the parts `buildApplication` opened
    /// from it (the served document, the cache and its fence, the readiness checks, the identity provider's
    /// tokens and the tracing). Tests start from their own defaults instead (`TestAPI`).
    public init(
        configuration: ServiceConfiguration, openAPIDocument: [UInt8], cache: TripResponseCache?,
        cacheFence: (any ChangeFeedFence)?, isReady: @escaping @Sendable () async -> Bool,
        isReaderUp: (@Sendable () -> Bool)?, identityProvider: IdentityProviderTokens?, tracing: TracingSetup?
    ) throws {
        let analyst = configuration.analyst
        let lifecycle = configuration.lifecycle
        self.init(
            secret: configuration.secret, previousSecrets: configuration.previousSecrets, cache: cache,
            cacheFence: cacheFence, analystLimits: AnalystQueryLimits(maximumSpanDays: analyst.maximumSpanDays),
            maximumConcurrentExports: analyst.maximumConcurrentExports,
            maximumExportsPerAnalyst: analyst.maximumExportsPerAnalyst,
            maximumStatsPerAnalyst: analyst.maximumStatsPerAnalyst,
            maximumConcurrentRiderExports: analyst.maximumConcurrentRiderExports,
            exportTimeLimit: analyst.exportTimeLimit, openAPIDocument: openAPIDocument, isReady: isReady,
            webPages: try WebPages(openAPIDocument: openAPIDocument), isReaderUp: isReaderUp,
            rateLimits: configuration.rateLimits, cors: configuration.cors,
            trustedForwarders: configuration.trustedForwarders, identityProvider: identityProvider,
            tracer: tracing?.tracer, headSampler: tracing?.headSampler,
            adjustmentPolicy: AdjustmentPolicy(tipWindowDays: lifecycle.tipWindowDays),
            changesRetentionDays: lifecycle.changesRetentionDays, tripRetention: lifecycle.tripRetention,
            recordingHorizon: lifecycle.recordingHorizon)
    }
}
