import Foundation
public import Hummingbird
import HummingbirdCore
public import Logging
public import Prometheus
import ServiceLifecycle
import Tracing
import TripHistoryAPI
import TripHistoryCache
import TripHistoryData
import TripHistoryDomain
import TripHistoryHTTP
import TripHistoryPresentation
import TripHistoryWeb

/// The composition root: the one place where concrete types are chosen and wired by their initializers, for
/// `serve` and for the tests that run the service as `serve` runs it. `metrics` is the registry the metrics
/// listener renders; `tracing`, when on, is the tracer given to the pools, the routing, the change listener and
/// the server, and the service that exports its spans.
public func buildApplication(
    configuration: ServiceConfiguration, metrics: PrometheusCollectorRegistry, logger: Logger,
    tracing: TracingSetup? = nil
) async throws -> some ApplicationProtocol {
    let tracer = tracing?.tracer
    // A pool per purpose, so no purpose can take another's connections: writes (and the rider reads on its
    // pipelined connections) here, the analyst API below, each also on the reader when one is configured.
    // Each sheds callers beyond its waiting bound.
    func makePool(
        _ name: String, _ settings: PoolSettings, pipelinedConnections: Int,
        connectionString: String = configuration.connectionString
    ) -> PostgresConnectionPool {
        PostgresConnectionPool(
            configuration: .init(
                connectionString: connectionString, size: settings.size,
                statementTimeout: configuration.statementTimeout, pipelinedConnections: pipelinedConnections,
                maximumWaiters: settings.maximumWaiters, maximumQueuedReads: configuration.maximumQueuedReads,
                queryGrace: configuration.queryGrace
            ),
            name: name, logger: logger, tracer: tracer
        )
    }
    let pool = makePool("writer", configuration.writePool, pipelinedConnections: configuration.pipelinedConnections)
    // A PL/Proxy proxy database makes the topology sharded (docs/scaling.md): each logical partition is a
    // database of its own, which the proxy's clusters name.
    let schema = PartitionedSchema(proxy: pool, source: configuration.migrations, logger: logger)
    let partitions = try await schema.partitions()
    // Each partition's pools at the connection strings the proxy names (PartitionRoutes): the riders' calls run
    // there as on one node, and so does each partition's maintenance, and the analysts' pages ask every partition
    // at once (under the analysts' statement timeout); with a reader, each partition's standby serves the riders'
    // and the analysts' reads too. A partition's pools share the write pool's and the analyst pool's limits among
    // the partitions.
    let standbyPartitions =
        partitions != nil && configuration.readConnectionString != nil
        ? try await schema.partitions(of: PartitionedSchema.standbyCluster) : nil
    func makePartitionPool(
        _ name: String, _ target: PostgresConnectionTarget, count: Int, analyst: Bool = false
    ) -> PostgresConnectionPool {
        let settings = analyst ? configuration.analystPool : configuration.writePool
        return PostgresConnectionPool(
            configuration: .init(
                connectionString: target.connectionString, size: max(2, 2 * settings.size / count),
                statementTimeout: analyst ? configuration.analyst.statementTimeout : configuration.statementTimeout,
                pipelinedConnections: analyst ? 0 : 1,
                maximumWaiters: settings.maximumWaiters,
                maximumQueuedReads: configuration.maximumQueuedReads, queryGrace: configuration.queryGrace,
                idleTimeout: .seconds(60), target: target
            ),
            name: name, logger: logger, tracer: tracer
        )
    }
    var routes: PartitionRoutes?
    if let partitions {
        let routed = partitions.map { partition in
            let name = "partition-\(partition.number)"
            let count = partitions.count
            let primary = PostgresConnectionTarget(partition.connectionString)
            let standby = standbyPartitions?.first { $0.number == partition.number }.map {
                PostgresConnectionTarget($0.connectionString)
            }
            return PartitionRoutes.Partition(
                primary: primary, standby: standby, writer: makePartitionPool(name, primary, count: count),
                reader: standby.map { makePartitionPool("\(name)-standby", $0, count: count) },
                analyst: makePartitionPool("\(name)-analyst", primary, count: count, analyst: true),
                analystReader: standby.map {
                    makePartitionPool("\(name)-standby-analyst", $0, count: count, analyst: true)
                })
        }
        guard let built = PartitionRoutes(partitions: routed, schema: schema, logger: logger) else {
            throw ConfigurationError("The proxy's cluster has \(partitions.count) partitions, not a power of two.")
        }
        routes = built
        logger.info("serving the sharded topology", metadata: ["partitions": "\(partitions.count)"])
        for partition in built.partitions {
            try await refuseOutdatedSchema(
                MigrationRunner(pool: partition.writer, source: configuration.migrations, logger: logger))
        }
    } else {
        try await refuseOutdatedSchema(MigrationRunner(pool: pool, source: configuration.migrations, logger: logger))
    }

    var openAPIDocument = EmbeddedOpenAPIDocument.bytes
    if let path = configuration.openAPIPath {
        do {
            openAPIDocument = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw ConfigurationError("Cannot read the OpenAPI document at \(path) (\(Setting.openAPI)).")
        }
    }

    // Reads go to the reader only when it is safe for them (PostgresReadRouting); the reader pool has the
    // writer pool's limits.
    let readerPool = configuration.readConnectionString.map { readURL in
        makePool(
            "reader", configuration.writePool, pipelinedConnections: configuration.pipelinedConnections,
            connectionString: readURL
        )
    }
    // Strict coherence fences every cached read with the routing's change-feed barrier, reader or not.
    let strict = configuration.cache != nil && configuration.cacheCoherence == .strict
    let routing = PostgresReadRouting(
        writer: pool, reader: readerPool, fencesChanges: strict, logger: logger, tracer: tracer)
    // Readiness is checked in the background on a connection of its own, never from a probe's request. On the
    // sharded topology it is the proxy's: one shard failing over leaves the other riders served.
    let health = try DatabaseHealthMonitor(
        connectionString: configuration.connectionString,
        migrations: partitions == nil ? configuration.migrations : nil, logger: logger)
    // On the sharded topology, the reader (the proxy naming its standby cluster) serves riders' reads too, with
    // read-your-writes per partition (ShardStandbyReads), on the routing's change-feed barrier.
    let standbyReads: ShardStandbyReads? =
        if let partitions {
            ShardStandbyReads(routing: routing, partitions: partitions.count)
        } else {
            nil
        }
    // The cache starts suspended: it may serve entries only once the listener below is listening, since
    // until then other instances' writes would go unnoticed.
    let cache = configuration.cache.map { TripResponseCache(configuration: $0, startsSuspended: true) }
    // With a reader the listener also feeds the routing: a rider's requirement is recorded before the
    // rider's cached responses are dropped, so no read computed after the drop can come from a stale reader.
    var changeListener: PostgresChangeListener?
    if cache != nil || readerPool != nil {
        let routed = readerPool != nil
        let fenced = routed || strict
        let onCommitted: @Sendable (RiderID?, WALPosition) -> Void = { riderID, position in
            routing.changeCommitted(riderID: riderID, at: position)
        }
        let onBarrier: @Sendable (String) -> Void = { routing.barrierReceived($0) }
        var onAnnounced: (@Sendable (String) -> Void)?
        if let standbyReads { onAnnounced = { payload in standbyReads.announced(payload) } }
        let keepsRoot: (@Sendable () -> Bool)? = tracing?.headSampler.map { sampler in { sampler.keepsRoot() } }
        changeListener = PostgresChangeListener(
            connectionString: configuration.connectionString, logger: logger,
            onListening: {
                standbyReads?.listeningStarted()
                routing.feedListening()
                cache?.resume()
            },
            onDisconnected: {
                routing.feedLost()
                cache?.suspend()
            },
            onChange: { riderID in
                if let riderID { cache?.invalidate(riderID) } else { cache?.invalidateAll() }
            },
            barrierChannel: fenced ? routing.barrierChannel : nil, onCommitted: routed ? onCommitted : nil,
            onBarrier: fenced ? onBarrier : nil, onAnnounced: onAnnounced, tracer: tracer,
            keepsRoot: keepsRoot
        )
    }
    let analystConfiguration = configuration.analyst
    let lifecycle = configuration.lifecycle
    // Analyst queries run in transactions on lent connections, never pipelined: no pipeline thread.
    let analystPool = makePool("analyst", configuration.analystPool, pipelinedConnections: 0)
    let analystReaderPool = configuration.readConnectionString.map { readURL in
        makePool("reader-analyst", configuration.analystPool, pipelinedConnections: 0, connectionString: readURL)
    }
    let analystRepository = PostgresAnalystTripRepository(
        pool: analystPool, reads: routing, readerPool: analystReaderPool,
        statementTimeout: analystConfiguration.statementTimeout, routes: routes, logger: logger
    )
    let isReaderUp: (@Sendable () -> Bool)? = readerPool == nil ? nil : { @Sendable in routing.isReaderUp }
    // The identity provider's keys are fetched by a service of their own; until a fetch succeeds its tokens
    // get 503, while the service's own tokens work as ever.
    let identityProvider = configuration.identityProvider.map { settings in
        let fetcher = JWKSFetcher(url: settings.url)
        let keys = JWKSKeySource(logger: logger) { try await fetcher.fetch() }
        return IdentityProviderTokens(configuration: settings.tokens, keys: keys)
    }
    // Rider reads and the liveness probe are answered from the channel pipeline before the framework sees
    // them; both count in the same request metrics.
    let requestMetrics = RequestMetrics()
    // The server over the trip store the topology has: one PostgreSQL, or the sharded one's proxy. Inlined at
    // both calls, so each builds the server of its concrete store, which the compiler specializes as before.
    @inline(__always)
    func routerAndServer<Repository: TripRepository>(
        _ repository: Repository
    ) async throws -> (Router<TripHistoryRequestContext>, HTTPServerBuilder) {
        let server = await TripHistoryServer(
            repository: repository, analystRepository: analystRepository,
            settings: try .init(
                configuration: configuration, openAPIDocument: openAPIDocument, cache: cache,
                cacheFence: strict ? routing : nil, isReady: { health.isReady }, isReaderUp: isReaderUp,
                identityProvider: identityProvider, tracing: tracing))
        return (
            server.router(metrics: requestMetrics),
            server.http1(
                metrics: requestMetrics, logger: logger, connectionLimits: configuration.connections,
                trustedProxies: configuration.trustedProxies)
        )
    }
    let (router, http) =
        if let routes {
            try await routerAndServer(
                ShardedTripRepository(
                    proxy: pool, routes: routes, standbyReads: standbyReads,
                    requiresStandbyCopy: configuration.requiresStandbyCopy, logger: logger))
        } else {
            try await routerAndServer(
                PostgresTripRepository(
                    pool: pool, reads: routing, requiresStandbyCopy: configuration.requiresStandbyCopy,
                    logger: logger))
        }
    var application = Application(
        router: router,
        server: http,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
        logger: logger
    )
    // Added first, so it stops last and exports the spans of the other services' shutdown.
    if let tracing { application.addServices(tracing.service) }
    application.addServices(pool, analystPool, health)
    // The trips' own maintenance runs where the trips are: the one database, or every partition.
    for partition in routes?.partitions ?? [] { application.addServices(partition.pools) }
    for maintained in routes?.partitions.map(\.writer) ?? [pool] {
        application.addServices(
            TripPartitionMaintainer(pool: maintained, logger: logger),
            ExpiredRowPurger(
                pool: maintained,
                expiries: [
                    .idempotencyKeys(lifecycle.idempotencyRetention),
                    // A day beyond the feed's retention: a token is refused before the changes after it go.
                    .tripChanges(.seconds((lifecycle.changesRetentionDays + 1) * 86_400)),
                ], logger: logger))
        if let retention = lifecycle.tripRetention {
            application.addServices(ExpiredTripRemover(pool: maintained, retention: retention, logger: logger))
        }
    }
    if let changeListener { application.addServices(changeListener) }
    if let identityProvider { application.addServices(JWKSRefreshService(keys: identityProvider.keys)) }
    if let address = configuration.metricsAddress {
        let listener = MetricsListener(exposition: { metrics.emitToBuffer() })
        application.addServices(listener.application(host: address.host, port: address.port, logger: logger))
    }
    if let readerPool, let analystReaderPool, let readURL = configuration.readConnectionString {
        application.addServices(
            readerPool, analystReaderPool,
            ReplicaLagSampler(
                writerConnectionString: configuration.connectionString, readerConnectionString: readURL,
                routing: routing, logger: logger))
    }
    return application
}

/// `serve` must not answer from a schema that lacks columns or indexes the code expects.
private func refuseOutdatedSchema(_ migrations: MigrationRunner) async throws {
    switch try await migrations.status() {
    case .current, .ahead:
        return
    case .pending(let names):
        throw ConfigurationError(
            "The database is behind: \(names.count) migration(s) pending (\(names.joined(separator: ", "))). "
                + "Run `trip-history migrate` first."
        )
    case .edited(let name):
        throw ConfigurationError(
            "Migration \(name) was edited after it was applied; restore it or add a new migration.")
    case .unknownApplied(let version):
        throw ConfigurationError(
            "The database has migration \(version), which this build does not know and which is no later one; "
                + "deploy the build that applied it.")
    }
}
