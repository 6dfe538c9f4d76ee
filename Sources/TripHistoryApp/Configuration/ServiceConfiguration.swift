import Foundation
public import Logging
public import TripHistoryAPI
public import TripHistoryCache
public import TripHistoryData
public import TripHistoryHTTP

/// Everything `serve` runs with, read from the settings in one place before anything starts.
public struct ServiceConfiguration: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// Where `GET /metrics` is served, apart from the API; nil serves none.
    public var metricsAddress: MetricsAddress? = MetricsAddress()
    public var connectionString: String
    /// The read replica's connection string; nil sends every read to the writer.
    public var readConnectionString: String? = nil
    /// Whether a write is answered only once a streaming standby has flushed it.
    public var requiresStandbyCopy = false
    /// The pool of writes (and other multi-statement work but the analyst API's).
    public var writePool = PoolSettings(size: 8, maximumWaiters: 64)
    /// The analyst API's own pool, so long analyst queries cannot take the writes' connections.
    public var analystPool = PoolSettings(size: 2, maximumWaiters: 8)
    public var pipelinedConnections = 2
    public var statementTimeout: Duration = .milliseconds(5000)
    /// How long past a statement timeout the client waits for PostgreSQL before giving a statement up.
    public var queryGrace: Duration = .milliseconds(1000)
    /// Most rider reads waiting for a pipelined connection.
    public var maximumQueuedReads = 1024
    /// The migrations the schema is checked against, by `serve` at start and by the health monitor.
    public var migrations: MigrationSource = .embedded
    /// A file served at `GET /openapi.yaml` in place of the document built into the binary; nil serves that.
    public var openAPIPath: String? = nil
    public var secret: [UInt8]
    /// Secrets rotated out, still accepted for tokens and cursors they signed.
    public var previousSecrets: [[UInt8]] = []
    /// Whether a cached response waits for proof that no other instance's acknowledged write is unannounced.
    public var cacheCoherence: CacheCoherence = .local
    /// The response cache's limits; nil turns the cache off.
    public var cache: TripResponseCacheConfiguration? = TripResponseCacheConfiguration(
        maximumBytes: TripResponseCacheConfiguration.defaultMaximumBytes, timeToLive: .seconds(30))
    /// The rate limits per caller; nil turns them off.
    public var rateLimits: RateLimits.Configuration? = RateLimits.Configuration()
    /// Timeouts and the cap of client connections.
    public var connections = ConnectionLimits()
    /// The proxies whose PROXY protocol headers name the client; none (the default) reads no header.
    public var trustedProxies = TrustedProxies()
    /// The forwarders whose `X-Forwarded-For` or `Forwarded` names the client; none (the default) reads neither.
    public var trustedForwarders = TrustedForwarders()
    /// The origins granted cross-origin access; nil (the default) allows none.
    public var cors: CORSPolicy? = nil
    /// The identity provider whose tokens are accepted too; nil (the default) accepts only the service's own.
    public var identityProvider: IdentityProviderSettings? = nil
    /// Limits of the analyst API.
    public var analyst = AnalystConfiguration()
    /// The bounds of a trip's life after the ride, and how long the changes feed and idempotency keys are kept.
    public var lifecycle = LifecycleConfiguration()
    public var logFormat: LogFormat = .text
    public var logLevel: Logger.Level = .info

    /// Every default but the two settings that have none.
    private init(connectionString: String, secret: [UInt8]) {
        self.connectionString = connectionString
        self.secret = secret
    }

    /// Every setting of `serve` from `settings`, defaults for the unset ones; throws on the first unusable one,
    /// naming it.
    public init(settings: SettingsReader) throws {
        self.init(connectionString: try Self.connectionString(settings), secret: try ServiceSecret.current(settings))
        host = settings.string(.host) ?? host
        port = try settings.integer(.port, in: 0...65_535) ?? port
        metricsAddress = try MetricsAddress(settings: settings)
        readConnectionString = settings.string(.databaseReadURL)
        requiresStandbyCopy = try settings.isOn(.requireStandbyCopy) ?? requiresStandbyCopy
        writePool = PoolSettings(
            size: try settings.integer(.poolSize, in: 1...256) ?? writePool.size,
            maximumWaiters: try settings.integer(.poolMaxWaiters, in: 0...100_000) ?? writePool.maximumWaiters)
        analystPool = PoolSettings(
            size: try settings.integer(.analystPoolSize, in: 1...256) ?? analystPool.size,
            maximumWaiters: try settings.integer(.analystPoolMaxWaiters, in: 0...100_000)
                ?? analystPool.maximumWaiters)
        pipelinedConnections = try settings.integer(.pipelinedConnections, in: 1...64) ?? pipelinedConnections
        statementTimeout =
            try settings.integer(.statementTimeout, in: 1...86_400_000).map { .milliseconds($0) }
            ?? statementTimeout
        queryGrace = try settings.integer(.queryGrace, in: 1...3_600_000).map { .milliseconds($0) } ?? queryGrace
        maximumQueuedReads = try settings.integer(.maxQueuedReads, in: 1...1_000_000) ?? maximumQueuedReads
        migrations = Self.migrationSource(settings)
        openAPIPath = settings.string(.openAPI)
        previousSecrets = try ServiceSecret.previous(settings)
        cacheCoherence = try settings.choice(.cacheCoherence) ?? cacheCoherence
        cache = try Self.cache(settings)
        rateLimits = try RateLimits.Configuration(settings: settings)
        connections = try ConnectionLimits(settings: settings)
        trustedProxies = try TrustedProxies(settings: settings)
        trustedForwarders = try TrustedForwarders(settings: settings)
        cors = try CORSPolicy(settings: settings)
        identityProvider = try IdentityProviderSettings(settings: settings)
        analyst = try AnalystConfiguration(settings: settings)
        lifecycle = try LifecycleConfiguration(settings: settings)
        logFormat = try settings.choice(.logFormat) ?? logFormat
        logLevel = try Self.logLevel(settings) ?? logLevel
    }

    /// The writer's connection string; a missing one is refused rather than defaulted to localhost.
    public static func connectionString(_ settings: SettingsReader) throws -> String {
        guard let url = settings.string(.databaseURL) else {
            throw ConfigurationError(
                "Set \(Setting.databaseURL.environmentName) (or DATABASE_URL), or pass --database-url.")
        }
        return url
    }

    /// The folder of migrations when one is given, else those built into the binary, so `migrate` works from
    /// any directory.
    public static func migrationSource(_ settings: SettingsReader) -> MigrationSource {
        settings.string(.migrations).map { .directory(URL(fileURLWithPath: $0, isDirectory: true)) } ?? .embedded
    }

    /// The cache's limits, or nil when it is off.
    private static func cache(_ settings: SettingsReader) throws -> TripResponseCacheConfiguration? {
        guard try settings.isOn(.cache) ?? true else { return nil }
        return TripResponseCacheConfiguration(
            maximumBytes: try settings.integer(.cacheBytes, in: 1...Int.max)
                ?? TripResponseCacheConfiguration.defaultMaximumBytes,
            timeToLive: .seconds(try settings.integer(.cacheTTL, in: 1...Int(Int32.max)) ?? 30))
    }

    private static func logLevel(_ settings: SettingsReader) throws -> Logger.Level? {
        guard let text = settings.string(.logLevel) else { return nil }
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigurationError("\(Setting.logLevel) must be one of \(levels), not '\(text)'.")
        }
        return level
    }
}

/// How cached responses relate to writes acknowledged by other instances.
public enum CacheCoherence: String, Sendable, CaseIterable {
    /// A write on another instance is seen once its notification arrives here.
    case local
    /// A write acknowledged by any instance before a read began is never missed by it.
    case strict
}

/// The shape of a log line.
public enum LogFormat: String, Sendable, CaseIterable {
    /// swift-log's stream handler: `time level label: metadata [source] message`.
    case text
    /// One JSON object per line: time, level, label, message, source, request id, metadata.
    case json
}
