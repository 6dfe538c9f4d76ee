import ArgumentParser
import Foundation
import Hummingbird
import Logging
import Prometheus
import TripHistoryAPI
import TripHistoryCache
import TripHistoryData
import TripHistoryDomain
import TripHistoryHTTP
import TripHistoryPresentation
import TripHistoryWeb

/// The composition root: the one place where concrete types are chosen and wired by their initializers.
func buildApplication(
    configuration: ServiceConfiguration, metrics: PrometheusCollectorRegistry, logger: Logger
) async throws -> some ApplicationProtocol {
    let pool = PostgresConnectionPool(
        configuration: .init(
            connectionString: configuration.connectionString, size: configuration.poolSize,
            statementTimeout: configuration.statementTimeout, pipelinedConnections: configuration.pipelinedConnections
        ),
        logger: logger
    )
    let migrations = MigrationRunner(pool: pool, directory: configuration.migrationsDirectory, logger: logger)
    try await refuseOutdatedSchema(migrations)

    let openAPIDocument: [UInt8]
    do {
        openAPIDocument = Array(try Data(contentsOf: URL(fileURLWithPath: configuration.openAPIPath)))
    } catch {
        throw ValidationError("Cannot read the OpenAPI document at \(configuration.openAPIPath).")
    }

    let repository = PostgresTripRepository(pool: pool, logger: logger)
    // Readiness is checked in the background on a connection of its own, never from a probe's request.
    let health = try DatabaseHealthMonitor(
        connectionString: configuration.connectionString, migrationsDirectory: configuration.migrationsDirectory,
        logger: logger)
    // The cache starts suspended: it may serve entries only once the listener below is listening, since
    // until then other instances' writes would go unnoticed.
    let cache = configuration.cache.map { TripResponseCache(configuration: $0, startsSuspended: true) }
    let changeListener = cache.map { cache in
        PostgresChangeListener(
            connectionString: configuration.connectionString, logger: logger,
            onListening: { cache.resume() },
            onDisconnected: { cache.suspend() },
            onChange: { riderID in
                if let riderID { cache.invalidate(riderID) } else { cache.invalidateAll() }
            }
        )
    }
    let analystConfiguration = try AnalystConfiguration.load(environment: ProcessInfo.processInfo.environment)
    let analystRepository = PostgresAnalystTripRepository(
        pool: pool, statementTimeout: analystConfiguration.statementTimeout, logger: logger
    )
    let server = await TripHistoryServer(
        repository: repository, analystRepository: analystRepository,
        settings: .init(
            secret: configuration.secret, cache: cache,
            analystLimits: AnalystQueryLimits(maximumSpanDays: analystConfiguration.maximumSpanDays),
            maximumConcurrentExports: analystConfiguration.maximumConcurrentExports,
            openAPIDocument: openAPIDocument, isReady: { health.isReady },
            metricsExposition: { metrics.emitToBuffer() },
            webPages: try WebPages(openAPIDocument: openAPIDocument)
        )
    )
    // Rider reads and the liveness probe are answered from the channel pipeline before the framework sees
    // them; both count in the same request metrics.
    let requestMetrics = RequestMetrics()
    var application = Application(
        router: server.router(metrics: requestMetrics),
        server: server.http1(metrics: requestMetrics, logger: logger, connectionLimits: configuration.connections),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
        logger: logger
    )
    let idempotency = try IdempotencyConfiguration.load(environment: ProcessInfo.processInfo.environment)
    application.addServices(
        pool, health, IdempotencyKeyPurger(pool: pool, retention: idempotency.retention, logger: logger))
    if let changeListener { application.addServices(changeListener) }
    return application
}

/// `serve` must not answer from a schema that lacks columns or indexes the code expects.
private func refuseOutdatedSchema(_ migrations: MigrationRunner) async throws {
    switch try await migrations.status() {
    case .current:
        return
    case .pending(let names):
        throw ValidationError(
            "The database is behind: \(names.count) migration(s) pending (\(names.joined(separator: ", "))). "
                + "Run `trip-history migrate` first."
        )
    case .edited(let name):
        throw ValidationError("Migration \(name) was edited after it was applied; restore it or add a new migration.")
    case .unknownApplied(let version):
        throw ValidationError(
            "The database has migration \(version), which this build does not know; deploy a newer build.")
    }
}
