/// Every setting the service reads, grouped as `docs/configuration.md` documents them.
extension Setting {
    // The listener and what it serves.
    public static let host = Setting("TRIP_HISTORY_HOST")
    public static let port = Setting("TRIP_HISTORY_PORT")
    public static let openAPI = Setting("TRIP_HISTORY_OPENAPI")
    public static let migrations = Setting("TRIP_HISTORY_MIGRATIONS")

    // Signing secrets.
    public static let secret = Setting("TRIP_HISTORY_SECRET", isSecret: true)
    public static let previousSecrets = Setting("TRIP_HISTORY_PREVIOUS_SECRETS", isSecret: true)

    // The database and the pools.
    public static let databaseURL = Setting(
        "TRIP_HISTORY_DATABASE_URL", aliases: [conventional("DATABASE_URL")], isSecret: true)
    public static let databaseReadURL = Setting(
        "TRIP_HISTORY_DATABASE_READ_URL", aliases: [conventional("DATABASE_READ_URL")], isSecret: true)
    public static let poolSize = Setting("TRIP_HISTORY_DB_POOL_SIZE", aliases: [deprecated("--pool-size")])
    public static let poolMaxWaiters = Setting(
        "TRIP_HISTORY_DB_POOL_MAX_WAITERS", aliases: [deprecated("--pool-max-waiters")])
    public static let analystPoolSize = Setting(
        "TRIP_HISTORY_DB_ANALYST_POOL_SIZE", aliases: [deprecated("--analyst-pool-size")])
    public static let analystPoolMaxWaiters = Setting(
        "TRIP_HISTORY_DB_ANALYST_POOL_MAX_WAITERS", aliases: [deprecated("--analyst-pool-max-waiters")])
    public static let pipelinedConnections = Setting(
        "TRIP_HISTORY_DB_PIPELINED_CONNECTIONS", aliases: [deprecated("--pipelined-connections")])
    public static let maxQueuedReads = Setting(
        "TRIP_HISTORY_DB_MAX_QUEUED_READS", aliases: [deprecated("--max-queued-reads")])
    public static let statementTimeout = Setting("TRIP_HISTORY_STATEMENT_TIMEOUT_MS")
    public static let queryGrace = Setting("TRIP_HISTORY_QUERY_GRACE_MS")
    public static let requireStandbyCopy = Setting("TRIP_HISTORY_REQUIRE_STANDBY_COPY", kind: .onOff)

    // The response cache.
    public static let cache = Setting("TRIP_HISTORY_CACHE", kind: .onOff)
    public static let cacheBytes = Setting("TRIP_HISTORY_CACHE_BYTES")
    public static let cacheTTL = Setting("TRIP_HISTORY_CACHE_TTL_SECONDS", aliases: [deprecated("--cache-ttl")])
    public static let cacheCoherence = Setting("TRIP_HISTORY_CACHE_COHERENCE")

    // The metrics listener.
    public static let metrics = Setting("TRIP_HISTORY_METRICS", kind: .onOff)
    public static let metricsHost = Setting("TRIP_HISTORY_METRICS_HOST")
    public static let metricsPort = Setting("TRIP_HISTORY_METRICS_PORT")

    // Rate limits.
    public static let rateLimits = Setting("TRIP_HISTORY_RATE_LIMITS", kind: .onOff)
    public static let rateLimitRider = Setting("TRIP_HISTORY_RATE_LIMIT_RIDER")
    public static let rateLimitAnalyst = Setting("TRIP_HISTORY_RATE_LIMIT_ANALYST")
    public static let rateLimitService = Setting("TRIP_HISTORY_RATE_LIMIT_SERVICE")
    public static let rateLimitAnonymous = Setting("TRIP_HISTORY_RATE_LIMIT_ANONYMOUS")
    public static let rateLimitBuckets = Setting("TRIP_HISTORY_RATE_LIMIT_BUCKETS")

    // Client connections.
    public static let headTimeout = Setting("TRIP_HISTORY_HEAD_TIMEOUT_MS")
    public static let idleTimeout = Setting("TRIP_HISTORY_IDLE_TIMEOUT_MS")
    public static let bodyTimeout = Setting("TRIP_HISTORY_BODY_TIMEOUT_MS")
    public static let bodyDeadline = Setting("TRIP_HISTORY_BODY_DEADLINE_MS")
    public static let writeTimeout = Setting("TRIP_HISTORY_WRITE_TIMEOUT_MS")
    public static let minWriteRate = Setting("TRIP_HISTORY_MIN_WRITE_RATE")
    public static let maxConnections = Setting("TRIP_HISTORY_MAX_CONNECTIONS")
    public static let maxConnectionsPerAddress = Setting("TRIP_HISTORY_MAX_CONNECTIONS_PER_ADDRESS")
    public static let trustedProxies = Setting("TRIP_HISTORY_TRUSTED_PROXIES")
    public static let trustedForwarders = Setting("TRIP_HISTORY_TRUSTED_FORWARDERS")
    public static let forwardedHeader = Setting("TRIP_HISTORY_FORWARDED_HEADER")
    public static let corsOrigins = Setting("TRIP_HISTORY_CORS_ORIGINS")

    // The identity provider.
    public static let jwksURL = Setting("TRIP_HISTORY_JWKS_URL")
    public static let jwksIssuer = Setting("TRIP_HISTORY_JWKS_ISSUER")
    public static let jwksAudience = Setting("TRIP_HISTORY_JWKS_AUDIENCE")
    public static let jwksRoleClaim = Setting("TRIP_HISTORY_JWKS_ROLE_CLAIM")
    public static let jwksRiderClaim = Setting("TRIP_HISTORY_JWKS_RIDER_CLAIM")

    // Logs.
    public static let logFormat = Setting("TRIP_HISTORY_LOG_FORMAT")
    public static let logLevel = Setting("TRIP_HISTORY_LOG_LEVEL", aliases: [deprecated("LOG_LEVEL")])

    // The analyst API.
    public static let analystMaxSpanDays = Setting("TRIP_HISTORY_ANALYST_MAX_SPAN_DAYS")
    public static let analystMaxExports = Setting("TRIP_HISTORY_ANALYST_MAX_EXPORTS")
    public static let analystMaxExportsPerAnalyst = Setting("TRIP_HISTORY_ANALYST_MAX_EXPORTS_PER_ANALYST")
    public static let analystMaxStatsPerAnalyst = Setting("TRIP_HISTORY_ANALYST_MAX_STATS_PER_ANALYST")
    public static let riderMaxExports = Setting("TRIP_HISTORY_RIDER_MAX_EXPORTS")
    public static let exportTimeLimit = Setting("TRIP_HISTORY_EXPORT_TIME_LIMIT_SECONDS")
    public static let analystStatementTimeout = Setting("TRIP_HISTORY_ANALYST_STATEMENT_TIMEOUT_MS")

    // A trip's life after the ride, and what is remembered for how long.
    public static let tipWindowDays = Setting("TRIP_HISTORY_TIP_WINDOW_DAYS")
    public static let changesRetentionDays = Setting("TRIP_HISTORY_CHANGES_RETENTION_DAYS")
    public static let idempotencyRetentionHours = Setting("TRIP_HISTORY_IDEMPOTENCY_RETENTION_HOURS")
    public static let retentionMonths = Setting("TRIP_HISTORY_RETENTION_MONTHS")
    public static let recordingHorizonYears = Setting("TRIP_HISTORY_RECORDING_HORIZON_YEARS")

    /// Every setting, in the order above.
    public static let all: [Setting] = [
        host, port, openAPI, migrations, secret, previousSecrets, databaseURL, databaseReadURL, poolSize,
        poolMaxWaiters, analystPoolSize, analystPoolMaxWaiters, pipelinedConnections, maxQueuedReads,
        statementTimeout, queryGrace, requireStandbyCopy, cache, cacheBytes, cacheTTL, cacheCoherence, metrics,
        metricsHost, metricsPort, rateLimits, rateLimitRider, rateLimitAnalyst, rateLimitService, rateLimitAnonymous,
        rateLimitBuckets, headTimeout, idleTimeout, bodyTimeout, bodyDeadline, writeTimeout, minWriteRate,
        maxConnections, maxConnectionsPerAddress, trustedProxies, trustedForwarders, forwardedHeader, corsOrigins,
        jwksURL, jwksIssuer, jwksAudience, jwksRoleClaim, jwksRiderClaim, logFormat, logLevel, analystMaxSpanDays,
        analystMaxExports, analystMaxExportsPerAnalyst, analystMaxStatsPerAnalyst, riderMaxExports, exportTimeLimit,
        analystStatementTimeout, tipWindowDays,
        changesRetentionDays, idempotencyRetentionHours, retentionMonths, recordingHorizonYears,
    ]
}
