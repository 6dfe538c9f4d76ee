import ArgumentParser
import TripHistoryApp

/// Every setting of `serve` as a flag, named by its `Setting`; values stay text, read by `SettingsReader` like
/// the environment's.
struct ServeFlags: ParsableArguments {
    // MARK: listener

    @Option(name: Setting.host.names, help: Setting.host.help("Address to listen on.", else: "127.0.0.1"))
    var host: String?

    @Option(name: Setting.port.names, help: Setting.port.help("Port to listen on.", else: "8080"))
    var port: String?

    @Option(
        name: Setting.openAPI.names,
        help: Setting.openAPI.help(
            "A file to serve at /openapi.yaml instead of the document built into the binary.", else: "the built-in one")
    )
    var openAPI: String?

    @Option(
        name: Setting.previousSecrets.names,
        help:
            "Comma-separated secrets rotated out but still accepted. Default: $TRIP_HISTORY_PREVIOUS_SECRETS. Prefer the variable or the file."
    )
    var previousSecrets: String?

    @Option(name: Setting.previousSecrets.fileNames, help: "A file holding the previous secrets, comma-separated.")
    var previousSecretsFile: String?

    // MARK: database

    @Option(
        name: Setting.databaseReadURL.names,
        help: Setting.databaseReadURL.help(
            "libpq URI or conninfo string of a read replica (e.g. target_session_attrs=prefer-standby); rider and analyst reads go there when it is safe for them.",
            else: "$DATABASE_READ_URL, else none")
    )
    var databaseReadURL: String?

    @Option(name: Setting.databaseReadURL.fileNames, help: "A file holding the read replica's connection string.")
    var databaseReadURLFile: String?

    @Option(
        name: Setting.poolSize.names,
        help: Setting.poolSize.help("Database connections lent for writes and other multi-statement work.", else: "8")
    )
    var poolSize: String?

    @Option(
        name: Setting.poolMaxWaiters.names,
        help: Setting.poolMaxWaiters.help(
            "Callers that may wait for a busy write connection; more get 503 at once.", else: "64")
    )
    var poolMaxWaiters: String?

    @Option(
        name: Setting.analystPoolSize.names,
        help: Setting.analystPoolSize.help(
            "Database connections of the analyst pool (lists, exports, stats).", else: "2")
    )
    var analystPoolSize: String?

    @Option(
        name: Setting.analystPoolMaxWaiters.names,
        help: Setting.analystPoolMaxWaiters.help(
            "Analyst requests that may wait for a busy analyst connection; more get 503 at once.", else: "8")
    )
    var analystPoolMaxWaiters: String?

    @Option(
        name: Setting.pipelinedConnections.names,
        help: Setting.pipelinedConnections.help(
            "Connections in pipeline mode that carry the rider reads, each with a thread of its own.", else: "2")
    )
    var pipelinedConnections: String?

    @Option(
        name: Setting.maxQueuedReads.names,
        help: Setting.maxQueuedReads.help(
            "Most rider reads waiting for a pipelined connection; more get 503 at once.", else: "1024")
    )
    var maxQueuedReads: String?

    @Option(
        name: Setting.statementTimeout.names,
        help: Setting.statementTimeout.help("Milliseconds before PostgreSQL cancels a statement.", else: "5000")
    )
    var statementTimeout: String?

    @Option(
        name: Setting.queryGrace.names,
        help: Setting.queryGrace.help(
            "Milliseconds past the statement timeout the service still waits for PostgreSQL before it drops the connection and answers 503.",
            else: "1000")
    )
    var queryGrace: String?

    @Flag(
        name: Setting.requireStandbyCopy.names, inversion: .prefixedNo,
        help: Setting.requireStandbyCopy.help(
            "Answer a write only once a streaming standby has flushed it (needs pg_read_all_stats).", else: "off")
    )
    var requireStandbyCopy: Bool?

    // MARK: cache

    @Flag(
        name: Setting.cache.names, inversion: .prefixedNo, help: Setting.cache.help("The response cache.", else: "on"))
    var cache: Bool?

    @Option(
        name: Setting.cacheBytes.names,
        help: Setting.cacheBytes.help("Response cache budget in bytes.", else: "33554432 (32 MiB)"))
    var cacheBytes: String?

    @Option(
        name: Setting.cacheTTL.names,
        help: Setting.cacheTTL.help("Seconds a cached response may be served.", else: "30"))
    var cacheTTL: String?

    @Option(
        name: Setting.cacheCoherence.names,
        help: Setting.cacheCoherence.help("Cache coherence across instances, local or strict.", else: "local"))
    var cacheCoherence: String?

    // MARK: metrics

    @Flag(
        name: Setting.metrics.names, inversion: .prefixedNo,
        help: Setting.metrics.help("The metrics listener (GET /metrics).", else: "on"))
    var metrics: Bool?

    @Option(
        name: Setting.metricsHost.names,
        help: Setting.metricsHost.help("Address of the metrics listener.", else: "127.0.0.1"))
    var metricsHost: String?

    @Option(
        name: Setting.metricsPort.names, help: Setting.metricsPort.help("Port of the metrics listener.", else: "9464"))
    var metricsPort: String?

    // MARK: rate limits

    @Flag(
        name: Setting.rateLimits.names, inversion: .prefixedNo,
        help: Setting.rateLimits.help("Rate limits per caller.", else: "on"))
    var rateLimits: Bool?

    @Option(
        name: Setting.rateLimitRider.names,
        help: Setting.rateLimitRider.help("Rider limit as RATE/BURST.", else: "20/60"))
    var rateLimitRider: String?

    @Option(
        name: Setting.rateLimitAnalyst.names,
        help: Setting.rateLimitAnalyst.help("Analyst limit as RATE/BURST.", else: "10/30"))
    var rateLimitAnalyst: String?

    @Option(
        name: Setting.rateLimitService.names,
        help: Setting.rateLimitService.help("Service limit as RATE/BURST.", else: "200/400"))
    var rateLimitService: String?

    @Option(
        name: Setting.rateLimitAnonymous.names,
        help: Setting.rateLimitAnonymous.help(
            "Limit per client address without a valid token, as RATE/BURST.", else: "5/20")
    )
    var rateLimitAnonymous: String?

    @Option(
        name: Setting.rateLimitBuckets.names,
        help: Setting.rateLimitBuckets.help("Most rate-limit buckets held.", else: "100000"))
    var rateLimitBuckets: String?

    // MARK: connections

    @Option(
        name: Setting.headTimeout.names,
        help: Setting.headTimeout.help("Milliseconds a request head may take to arrive.", else: "5000"))
    var headTimeout: String?

    @Option(
        name: Setting.idleTimeout.names,
        help: Setting.idleTimeout.help(
            "Milliseconds a keep-alive connection may wait for its next request.", else: "75000")
    )
    var idleTimeout: String?

    @Option(
        name: Setting.bodyTimeout.names,
        help: Setting.bodyTimeout.help("Milliseconds a request body may pause.", else: "10000"))
    var bodyTimeout: String?

    @Option(
        name: Setting.bodyDeadline.names,
        help: Setting.bodyDeadline.help(
            "Milliseconds a request body may take to arrive completely after its head.", else: "30000")
    )
    var bodyDeadline: String?

    @Option(
        name: Setting.writeTimeout.names,
        help: Setting.writeTimeout.help("Milliseconds a response may wait for the client to read.", else: "30000")
    )
    var writeTimeout: String?

    @Option(
        name: Setting.minWriteRate.names,
        help: Setting.minWriteRate.help(
            "Bytes per second a client holding a response back must take, over the write timeout.", else: "1024")
    )
    var minWriteRate: String?

    @Option(
        name: Setting.maxConnections.names,
        help: Setting.maxConnections.help("Client connections open at once; one more gets 503.", else: "1000"))
    var maxConnections: String?

    @Option(
        name: Setting.maxConnectionsPerAddress.names,
        help: Setting.maxConnectionsPerAddress.help(
            "Client connections open at once from one address; one more gets 503.", else: "256")
    )
    var maxConnectionsPerAddress: String?

    @Option(
        name: Setting.trustedProxies.names,
        help: Setting.trustedProxies.help(
            "Comma-separated addresses or CIDR ranges of proxies that send a PROXY protocol v2 header.", else: "none")
    )
    var trustedProxies: String?

    @Option(
        name: Setting.trustedForwarders.names,
        help: Setting.trustedForwarders.help(
            "Comma-separated addresses or CIDR ranges of load balancers whose X-Forwarded-For or Forwarded names "
                + "the client.", else: "none")
    )
    var trustedForwarders: String?

    @Option(
        name: Setting.forwardedHeader.names,
        help: Setting.forwardedHeader.help(
            "The field trusted forwarders write the client in, x-forwarded-for or forwarded.",
            else: "x-forwarded-for")
    )
    var forwardedHeader: String?

    @Option(
        name: Setting.corsOrigins.names,
        help: Setting.corsOrigins.help(
            "Comma-separated origins granted cross-origin access (e.g. https://app.example.com).", else: "none")
    )
    var corsOrigins: String?

    // MARK: identity provider

    @Option(
        name: Setting.jwksURL.names,
        help: Setting.jwksURL.help(
            "JWKS URL of the identity provider whose RS256/ES256 tokens are accepted.", else: "none")
    )
    var jwksURL: String?

    @Option(
        name: Setting.jwksIssuer.names,
        help:
            "The iss the identity provider's tokens must have. Default: $TRIP_HISTORY_JWKS_ISSUER; required with a JWKS URL."
    )
    var jwksIssuer: String?

    @Option(
        name: Setting.jwksAudience.names,
        help:
            "A value the aud of the identity provider's tokens must include. Default: $TRIP_HISTORY_JWKS_AUDIENCE; required with a JWKS URL."
    )
    var jwksAudience: String?

    @Option(
        name: Setting.jwksRoleClaim.names, help: Setting.jwksRoleClaim.help("The claim holding the role.", else: "role")
    )
    var jwksRoleClaim: String?

    @Option(
        name: Setting.jwksRiderClaim.names,
        help: Setting.jwksRiderClaim.help("The claim holding a rider token's rider id.", else: "sub"))
    var jwksRiderClaim: String?

    // MARK: logs, analysts and retention

    @Option(
        name: Setting.logFormat.names, help: Setting.logFormat.help("Log line format, text or json.", else: "text"))
    var logFormat: String?

    @Option(
        name: Setting.logLevel.names,
        help: Setting.logLevel.help("trace, debug, info, notice, warning, error or critical.", else: "info"))
    var logLevel: String?

    @Option(
        name: Setting.analystMaxSpanDays.names,
        help: Setting.analystMaxSpanDays.help("Widest from..to window of an analyst query, in days.", else: "400")
    )
    var analystMaxSpanDays: String?

    @Option(
        name: Setting.analystMaxExports.names,
        help: Setting.analystMaxExports.help("Analyst exports streaming at once; more get 429.", else: "2"))
    var analystMaxExports: String?

    @Option(
        name: Setting.analystMaxExportsPerAnalyst.names,
        help: Setting.analystMaxExportsPerAnalyst.help("Exports one analyst may stream at once.", else: "1"))
    var analystMaxExportsPerAnalyst: String?

    @Option(
        name: Setting.riderMaxExports.names,
        help: Setting.riderMaxExports.help("Riders' exports of their own trips streaming at once.", else: "4"))
    var riderMaxExports: String?

    @Option(
        name: Setting.exportTimeLimit.names,
        help: Setting.exportTimeLimit.help("Seconds one export may stream before it is ended.", else: "1800"))
    var exportTimeLimit: String?

    @Option(
        name: Setting.analystMaxStatsPerAnalyst.names,
        help: Setting.analystMaxStatsPerAnalyst.help("Stats queries one analyst may run at once.", else: "2")
    )
    var analystMaxStatsPerAnalyst: String?

    @Option(
        name: Setting.analystStatementTimeout.names,
        help: Setting.analystStatementTimeout.help(
            "Milliseconds before PostgreSQL cancels an analyst statement.", else: "30000")
    )
    var analystStatementTimeout: String?

    @Option(
        name: Setting.tipWindowDays.names,
        help: Setting.tipWindowDays.help("Days after a trip's completion during which tips are accepted.", else: "30")
    )
    var tipWindowDays: String?

    @Option(
        name: Setting.changesRetentionDays.names,
        help: Setting.changesRetentionDays.help("Days the changes feed keeps changes (at least 30).", else: "30")
    )
    var changesRetentionDays: String?

    @Option(
        name: Setting.idempotencyRetentionHours.names,
        help: Setting.idempotencyRetentionHours.help("Hours an idempotency key is remembered.", else: "24"))
    var idempotencyRetentionHours: String?

    @Option(
        name: Setting.retentionMonths.names,
        help: Setting.retentionMonths.help(
            "Months of trips kept before the current month; older months are removed (1-1200).",
            else: "kept until erased"))
    var retentionMonths: String?

    @Option(
        name: Setting.recordingHorizonYears.names,
        help: Setting.recordingHorizonYears.help(
            "Years before or after now a recorded trip may have been requested (1-100).", else: "10"))
    var recordingHorizonYears: String?

    var given: GivenFlags {
        var given = GivenFlags()
        given.add(.host, host)
        given.add(.port, port)
        given.add(.openAPI, openAPI)
        given.add(.previousSecrets, previousSecrets)
        given.add(.previousSecrets, file: previousSecretsFile)
        given.add(.databaseReadURL, databaseReadURL)
        given.add(.databaseReadURL, file: databaseReadURLFile)
        given.add(.poolSize, poolSize)
        given.add(.poolMaxWaiters, poolMaxWaiters)
        given.add(.analystPoolSize, analystPoolSize)
        given.add(.analystPoolMaxWaiters, analystPoolMaxWaiters)
        given.add(.pipelinedConnections, pipelinedConnections)
        given.add(.maxQueuedReads, maxQueuedReads)
        given.add(.statementTimeout, statementTimeout)
        given.add(.queryGrace, queryGrace)
        given.add(.requireStandbyCopy, on: requireStandbyCopy)
        given.add(.cache, on: cache)
        given.add(.cacheBytes, cacheBytes)
        given.add(.cacheTTL, cacheTTL)
        given.add(.cacheCoherence, cacheCoherence)
        given.add(.metrics, on: metrics)
        given.add(.metricsHost, metricsHost)
        given.add(.metricsPort, metricsPort)
        given.add(.rateLimits, on: rateLimits)
        given.add(.rateLimitRider, rateLimitRider)
        given.add(.rateLimitAnalyst, rateLimitAnalyst)
        given.add(.rateLimitService, rateLimitService)
        given.add(.rateLimitAnonymous, rateLimitAnonymous)
        given.add(.rateLimitBuckets, rateLimitBuckets)
        given.add(.headTimeout, headTimeout)
        given.add(.idleTimeout, idleTimeout)
        given.add(.bodyTimeout, bodyTimeout)
        given.add(.bodyDeadline, bodyDeadline)
        given.add(.writeTimeout, writeTimeout)
        given.add(.minWriteRate, minWriteRate)
        given.add(.maxConnections, maxConnections)
        given.add(.maxConnectionsPerAddress, maxConnectionsPerAddress)
        given.add(.trustedProxies, trustedProxies)
        given.add(.trustedForwarders, trustedForwarders)
        given.add(.forwardedHeader, forwardedHeader)
        given.add(.corsOrigins, corsOrigins)
        given.add(.jwksURL, jwksURL)
        given.add(.jwksIssuer, jwksIssuer)
        given.add(.jwksAudience, jwksAudience)
        given.add(.jwksRoleClaim, jwksRoleClaim)
        given.add(.jwksRiderClaim, jwksRiderClaim)
        given.add(.logFormat, logFormat)
        given.add(.logLevel, logLevel)
        given.add(.analystMaxSpanDays, analystMaxSpanDays)
        given.add(.analystMaxExports, analystMaxExports)
        given.add(.analystMaxExportsPerAnalyst, analystMaxExportsPerAnalyst)
        given.add(.analystMaxStatsPerAnalyst, analystMaxStatsPerAnalyst)
        given.add(.riderMaxExports, riderMaxExports)
        given.add(.exportTimeLimit, exportTimeLimit)
        given.add(.analystStatementTimeout, analystStatementTimeout)
        given.add(.tipWindowDays, tipWindowDays)
        given.add(.changesRetentionDays, changesRetentionDays)
        given.add(.idempotencyRetentionHours, idempotencyRetentionHours)
        given.add(.retentionMonths, retentionMonths)
        given.add(.recordingHorizonYears, recordingHorizonYears)
        return given
    }
}
