/// Every setting the service reads, grouped as `docs/configuration.md` documents them.
extension Setting {
    // The listener and what it serves.
    public static let host = Setting(
        "TRIP_HISTORY_HOST", help: "Address to listen on.", default: "127.0.0.1")
    public static let port = Setting(
        "TRIP_HISTORY_PORT", help: "Port to listen on.", default: "8080")
    public static let openAPI = Setting(
        "TRIP_HISTORY_OPENAPI", help: "A file to serve at /openapi.yaml instead of the document built into the binary.",
        default: "the built-in one")
    public static let migrations = Setting(
        "TRIP_HISTORY_MIGRATIONS",
        help: "Folder of NNNN_name.sql migrations to use instead of those built into the binary.",
        default: "the built-in ones")

    // Signing secrets.
    public static let secret = Setting(
        "TRIP_HISTORY_SECRET", isSecret: true,
        help:
            "The signing secret, at least 32 bytes; prefer the variable or --secret-file, since flags are visible in the process list.",
        default: "none (required)")
    public static let previousSecrets = Setting(
        "TRIP_HISTORY_PREVIOUS_SECRETS", isSecret: true,
        help: "Comma-separated secrets rotated out but still accepted; prefer the variable or the file.",
        default: "none")

    // The database and the pools.
    public static let databaseURL = Setting(
        "TRIP_HISTORY_DATABASE_URL", aliases: [conventional("DATABASE_URL")], isSecret: true,
        help: "libpq URI or conninfo string of the primary.", default: "$DATABASE_URL")
    public static let databaseReadURL = Setting(
        "TRIP_HISTORY_DATABASE_READ_URL", aliases: [conventional("DATABASE_READ_URL")], isSecret: true,
        help:
            "libpq URI or conninfo string of a read replica (e.g. target_session_attrs=prefer-standby); rider and analyst reads go there when it is safe for them.",
        default: "$DATABASE_READ_URL, else none")
    public static let poolSize = Setting(
        "TRIP_HISTORY_DB_POOL_SIZE", aliases: [deprecated("--pool-size")],
        help: "Database connections lent for writes and other multi-statement work.", default: "8")
    public static let poolMaxWaiters = Setting(
        "TRIP_HISTORY_DB_POOL_MAX_WAITERS", aliases: [deprecated("--pool-max-waiters")],
        help: "Callers that may wait for a busy write connection; more get 503 at once.", default: "64")
    public static let analystPoolSize = Setting(
        "TRIP_HISTORY_DB_ANALYST_POOL_SIZE", aliases: [deprecated("--analyst-pool-size")],
        help: "Database connections of the analyst pool (lists, exports, stats).", default: "2")
    public static let analystPoolMaxWaiters = Setting(
        "TRIP_HISTORY_DB_ANALYST_POOL_MAX_WAITERS", aliases: [deprecated("--analyst-pool-max-waiters")],
        help: "Analyst requests that may wait for a busy analyst connection; more get 503 at once.", default: "8")
    public static let pipelinedConnections = Setting(
        "TRIP_HISTORY_DB_PIPELINED_CONNECTIONS", aliases: [deprecated("--pipelined-connections")],
        help: "Connections in pipeline mode that carry the rider reads, each with a thread of its own.", default: "2")
    public static let maxQueuedReads = Setting(
        "TRIP_HISTORY_DB_MAX_QUEUED_READS", aliases: [deprecated("--max-queued-reads")],
        help: "Most rider reads waiting for a pipelined connection; more get 503 at once.", default: "1024")
    public static let statementTimeout = Setting(
        "TRIP_HISTORY_STATEMENT_TIMEOUT_MS", help: "Milliseconds before PostgreSQL cancels a statement.",
        default: "5000")
    public static let queryGrace = Setting(
        "TRIP_HISTORY_QUERY_GRACE_MS",
        help:
            "Milliseconds past the statement timeout the service still waits for PostgreSQL before it drops the connection and answers 503.",
        default: "1000")
    public static let requireStandbyCopy = Setting(
        "TRIP_HISTORY_REQUIRE_STANDBY_COPY", kind: .onOff,
        help: "Answer a write only once a streaming standby has flushed it (needs pg_read_all_stats).", default: "off")

    // The response cache.
    public static let cache = Setting(
        "TRIP_HISTORY_CACHE", kind: .onOff, help: "The response cache.", default: "on")
    public static let cacheBytes = Setting(
        "TRIP_HISTORY_CACHE_BYTES", help: "Response cache budget in bytes.", default: "33554432 (32 MiB)")
    public static let cacheTTL = Setting(
        "TRIP_HISTORY_CACHE_TTL_SECONDS", aliases: [deprecated("--cache-ttl")],
        help: "Seconds a cached response may be served.", default: "30")
    public static let cacheCoherence = Setting(
        "TRIP_HISTORY_CACHE_COHERENCE", help: "Cache coherence across instances, local or strict.", default: "local")

    // The metrics listener.
    public static let metrics = Setting(
        "TRIP_HISTORY_METRICS", kind: .onOff, help: "The metrics listener (GET /metrics).", default: "on")
    public static let metricsHost = Setting(
        "TRIP_HISTORY_METRICS_HOST", help: "Address of the metrics listener.", default: "127.0.0.1")
    public static let metricsPort = Setting(
        "TRIP_HISTORY_METRICS_PORT", help: "Port of the metrics listener.", default: "9464")

    // Rate limits.
    public static let rateLimits = Setting(
        "TRIP_HISTORY_RATE_LIMITS", kind: .onOff, help: "Rate limits per caller.", default: "on")
    public static let rateLimitRider = Setting(
        "TRIP_HISTORY_RATE_LIMIT_RIDER", help: "Rider limit as RATE/BURST.", default: "20/60")
    public static let rateLimitAnalyst = Setting(
        "TRIP_HISTORY_RATE_LIMIT_ANALYST", help: "Analyst limit as RATE/BURST.", default: "10/30")
    public static let rateLimitService = Setting(
        "TRIP_HISTORY_RATE_LIMIT_SERVICE", help: "Service limit as RATE/BURST.", default: "200/400")
    public static let rateLimitAnonymous = Setting(
        "TRIP_HISTORY_RATE_LIMIT_ANONYMOUS", help: "Limit per client address without a valid token, as RATE/BURST.",
        default: "5/20")
    public static let rateLimitBuckets = Setting(
        "TRIP_HISTORY_RATE_LIMIT_BUCKETS", help: "Most rate-limit buckets held.", default: "100000")

    // Client connections.
    public static let headTimeout = Setting(
        "TRIP_HISTORY_HEAD_TIMEOUT_MS", help: "Milliseconds a request head may take to arrive.", default: "5000")
    public static let idleTimeout = Setting(
        "TRIP_HISTORY_IDLE_TIMEOUT_MS", help: "Milliseconds a keep-alive connection may wait for its next request.",
        default: "75000")
    public static let bodyTimeout = Setting(
        "TRIP_HISTORY_BODY_TIMEOUT_MS", help: "Milliseconds a request body may pause.", default: "10000")
    public static let bodyDeadline = Setting(
        "TRIP_HISTORY_BODY_DEADLINE_MS",
        help: "Milliseconds a request body may take to arrive completely after its head.", default: "30000")
    public static let writeTimeout = Setting(
        "TRIP_HISTORY_WRITE_TIMEOUT_MS", help: "Milliseconds a response may wait for the client to read.",
        default: "30000")
    public static let minWriteRate = Setting(
        "TRIP_HISTORY_MIN_WRITE_RATE",
        help: "Bytes per second a client holding a response back must take, over the write timeout.", default: "1024")
    public static let maxConnections = Setting(
        "TRIP_HISTORY_MAX_CONNECTIONS", help: "Client connections open at once; one more gets 503.", default: "1000")
    public static let maxConnectionsPerAddress = Setting(
        "TRIP_HISTORY_MAX_CONNECTIONS_PER_ADDRESS",
        help: "Client connections open at once from one address; one more gets 503.", default: "256")
    public static let trustedProxies = Setting(
        "TRIP_HISTORY_TRUSTED_PROXIES",
        help: "Comma-separated addresses or CIDR ranges of proxies that send a PROXY protocol v2 header.",
        default: "none")
    public static let trustedForwarders = Setting(
        "TRIP_HISTORY_TRUSTED_FORWARDERS",
        help:
            "Comma-separated addresses or CIDR ranges of load balancers whose X-Forwarded-For or Forwarded names the client.",
        default: "none")
    public static let forwardedHeader = Setting(
        "TRIP_HISTORY_FORWARDED_HEADER",
        help: "The field trusted forwarders write the client in, x-forwarded-for or forwarded.",
        default: "x-forwarded-for")
    public static let corsOrigins = Setting(
        "TRIP_HISTORY_CORS_ORIGINS",
        help: "Comma-separated origins granted cross-origin access (e.g. https://app.example.com).", default: "none")

    // The identity provider.
    public static let jwksURL = Setting(
        "TRIP_HISTORY_JWKS_URL", help: "JWKS URL of the identity provider whose RS256/ES256 tokens are accepted.",
        default: "none")
    public static let jwksIssuer = Setting(
        "TRIP_HISTORY_JWKS_ISSUER", help: "The iss the identity provider's tokens must have; required with a JWKS URL.",
        default: "none")
    public static let jwksAudience = Setting(
        "TRIP_HISTORY_JWKS_AUDIENCE",
        help: "A value the aud of the identity provider's tokens must include; required with a JWKS URL.",
        default: "none")
    public static let jwksRoleClaim = Setting(
        "TRIP_HISTORY_JWKS_ROLE_CLAIM", help: "The claim holding the role.", default: "role")
    public static let jwksRiderClaim = Setting(
        "TRIP_HISTORY_JWKS_RIDER_CLAIM", help: "The claim holding a rider token's rider id.", default: "sub")

    // Logs.
    public static let logFormat = Setting(
        "TRIP_HISTORY_LOG_FORMAT", help: "Log line format, text or json.", default: "text")
    public static let logLevel = Setting(
        "TRIP_HISTORY_LOG_LEVEL", aliases: [deprecated("LOG_LEVEL")],
        help: "trace, debug, info, notice, warning, error or critical.", default: "info")

    // The analyst API.
    public static let analystMaxSpanDays = Setting(
        "TRIP_HISTORY_ANALYST_MAX_SPAN_DAYS", help: "Widest from..to window of an analyst query, in days.",
        default: "400")
    public static let analystMaxExports = Setting(
        "TRIP_HISTORY_ANALYST_MAX_EXPORTS", help: "Analyst exports streaming at once; more get 429.", default: "2")
    public static let analystMaxExportsPerAnalyst = Setting(
        "TRIP_HISTORY_ANALYST_MAX_EXPORTS_PER_ANALYST", help: "Exports one analyst may stream at once.", default: "1")
    public static let analystMaxStatsPerAnalyst = Setting(
        "TRIP_HISTORY_ANALYST_MAX_STATS_PER_ANALYST", help: "Stats queries one analyst may run at once.", default: "2")
    public static let riderMaxExports = Setting(
        "TRIP_HISTORY_RIDER_MAX_EXPORTS", help: "Riders' exports of their own trips streaming at once.", default: "4")
    public static let exportTimeLimit = Setting(
        "TRIP_HISTORY_EXPORT_TIME_LIMIT_SECONDS", help: "Seconds one export may stream before it is ended.",
        default: "1800")
    public static let analystStatementTimeout = Setting(
        "TRIP_HISTORY_ANALYST_STATEMENT_TIMEOUT_MS",
        help: "Milliseconds before PostgreSQL cancels an analyst statement.", default: "30000")

    // A trip's life after the ride, and what is remembered for how long.
    public static let tipWindowDays = Setting(
        "TRIP_HISTORY_TIP_WINDOW_DAYS", help: "Days after a trip's completion during which tips are accepted.",
        default: "30")
    public static let changesRetentionDays = Setting(
        "TRIP_HISTORY_CHANGES_RETENTION_DAYS", help: "Days the changes feed keeps changes (at least 30).", default: "30"
    )
    public static let idempotencyRetentionHours = Setting(
        "TRIP_HISTORY_IDEMPOTENCY_RETENTION_HOURS", help: "Hours an idempotency key is remembered.", default: "24")
    public static let retentionMonths = Setting(
        "TRIP_HISTORY_RETENTION_MONTHS",
        help: "Months of trips kept before the current month; older months are removed (1-1200).",
        default: "kept until erased")
    public static let recordingHorizonYears = Setting(
        "TRIP_HISTORY_RECORDING_HORIZON_YEARS",
        help: "Years before or after now a recorded trip may have been requested (1-100).", default: "10")

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
