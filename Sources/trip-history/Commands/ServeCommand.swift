import ArgumentParser
import Foundation
import Hummingbird
import Logging
import Metrics
import OTel
import Prometheus
import TripHistoryApp
import TripHistoryData
import TripHistoryLogging

/// `trip-history serve`: runs the HTTP API until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve the HTTP API.",
        discussion: """
            Each flag has an environment variable of the same words (--db-pool-size, TRIP_HISTORY_DB_POOL_SIZE); a \
            flag wins. The settings' flags besides the database and secrets:

            \(ServeFlags.reference)
            """
    )

    @OptionGroup(title: "Database and secrets") var database: DatabaseFlags
    @OptionGroup var secret: SecretFlags
    @OptionGroup var flags: ServeFlags

    @Flag(
        help:
            "Resolve and check every setting, print them (passwords and secrets left out) and exit without connecting or listening."
    )
    var checkConfig = false

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        var given = database.given
        given.add(secret.given)
        given.add(try flags.given)
        let settings = try given.settings(environment: environment)
        let configuration = try usageErrors { try ServiceConfiguration(settings: settings) }
        let tracesOn = try usageErrors { try TracingOptions.isEnabled(environment: environment) }
        if checkConfig {
            for warning in settings.deprecationWarnings { print("warning: \(warning)") }
            print(configuration.summary.joined(separator: "\n"))
            print("configuration: valid")
            return
        }
        Self.bootstrapLogging(configuration.logFormat, tracing: tracesOn)
        var logger = Logger(label: "trip-history")
        logger.logLevel = configuration.logLevel
        for warning in settings.deprecationWarnings { logger.warning("\(warning)") }
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

    /// Makes every logger of the process write in `format`: called once, before the first logger is made.
    /// Text keeps swift-log's default handler. With `tracing`, JSON lines written while a span is active carry
    /// its `trace_id`, `span_id` and `trace_flags` (swift-otel's metadata provider).
    static func bootstrapLogging(_ format: LogFormat, tracing: Bool) {
        switch format {
        case .text:
            break
        case .json:
            LoggingSystem.bootstrap(
                { label, metadataProvider in JSONLogHandler(label: label, metadataProvider: metadataProvider) },
                metadataProvider: tracing ? OTel.makeLoggingMetadataProvider() : nil)
        }
    }
}
