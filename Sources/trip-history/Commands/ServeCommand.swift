import ArgumentParser
import Foundation
import Hummingbird
import Logging
import Metrics
import Prometheus
import TripHistoryData

/// `trip-history serve`: runs the HTTP API until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Serve the HTTP API.")

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on.")
    var port = 8080

    @Option(
        help:
            "A file to serve at /openapi.yaml instead of the document built into the binary. Default: $TRIP_HISTORY_OPENAPI, else the built-in one."
    )
    var openapi: String?

    @Option(
        help: ArgumentHelp(
            "Comma-separated secrets rotated out but still accepted. Default: $TRIP_HISTORY_PREVIOUS_SECRETS.",
            discussion: "Prefer the environment variable: flags are visible in the process list."
        )
    )
    var previousSecrets: String?

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var cache: CacheOptions

    @OptionGroup var metrics: MetricsOptions
    @OptionGroup var rateLimits: RateLimitOptions
    @OptionGroup var connections: ConnectionOptions
    @OptionGroup var proxies: ProxyOptions
    @OptionGroup var cors: CORSOptions
    @OptionGroup var identityProvider: IdentityProviderOptions
    @OptionGroup var logging: LoggingOptions

    @Flag(
        help:
            "Resolve and check every setting, print them (passwords and secrets left out) and exit without connecting or listening."
    )
    var checkConfig = false

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let tracesOn = try TracingOptions.isEnabled(environment: environment)
        LoggingOptions.bootstrap(try logging.format(environment: environment), tracing: tracesOn)
        var logger = Logger(label: "trip-history")
        logger.logLevel = environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        let configuration = ServiceConfiguration(
            host: host,
            port: port,
            metricsAddress: try metrics.address(environment: environment),
            connectionString: try database.connectionString(environment: environment),
            readConnectionString: database.readConnectionString(environment: environment),
            requiresStandbyCopy: try database.requiresStandbyCopy(environment: environment),
            writePool: try database.writePool(environment: environment),
            analystPool: try database.analystPool(environment: environment),
            pipelinedConnections: try database.resolvedPipelinedConnections(environment: environment),
            statementTimeout: try database.statementTimeout(environment: environment),
            queryGrace: try database.queryGrace(environment: environment),
            maximumQueuedReads: try database.resolvedMaximumQueuedReads(environment: environment),
            migrations: database.migrationSource(environment: environment),
            openAPIPath: openapi ?? environment["TRIP_HISTORY_OPENAPI"].flatMap { $0.isEmpty ? nil : $0 },
            secret: try ServiceSecret.load(environment: environment),
            previousSecrets: try ServiceSecret.loadPrevious(flag: previousSecrets, environment: environment),
            cacheCoherence: try cache.coherence(environment: environment),
            cache: try cache.configuration(environment: environment),
            rateLimits: try rateLimits.configuration(environment: environment),
            connections: try connections.limits(environment: environment),
            trustedProxies: try proxies.trustedProxies(environment: environment),
            cors: try cors.policy(environment: environment),
            identityProvider: try identityProvider.settings(environment: environment)
        )
        if checkConfig {
            print(configuration.summary.joined(separator: "\n"))
            print("configuration: valid")
            return
        }
        // The one bootstrap of the process: everything that records metrics (the cache, the request metrics
        // middleware) uses the global factory, and the metrics listener's GET /metrics renders this registry.
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        for label in DatabaseLatencyHistograms.labels {
            factory.durationHistogramBuckets[label] = DatabaseLatencyHistograms.buckets
        }
        MetricsSystem.bootstrap(factory)
        // The tracer is handed to what it traces rather than bootstrapped globally, so no library traces the
        // exporter's own HTTP requests.
        let tracing = try TracingOptions.tracing(environment: environment)
        if tracing != nil { logger.info("traces on", metadata: TracingOptions.settings(environment: environment)) }
        let application = try await buildApplication(
            configuration: configuration, metrics: registry, logger: logger, tracing: tracing)
        try await application.runService()
    }
}
