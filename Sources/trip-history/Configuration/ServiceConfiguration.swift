import Foundation
import TripHistoryAPI
import TripHistoryData
import TripHistoryHTTP

/// Everything `serve` needs, resolved from flags and the environment before anything starts.
struct ServiceConfiguration: Sendable {
    var host: String
    var port: Int
    /// Where `GET /metrics` is served, apart from the API; nil serves none.
    var metricsAddress: (host: String, port: Int)?
    var connectionString: String
    /// The read replica's connection string; nil sends every read to the writer.
    var readConnectionString: String? = nil
    /// Whether a write is answered only once a streaming standby has flushed it.
    var requiresStandbyCopy = false
    /// The pool of writes (and other multi-statement work but the analyst API's).
    var writePool: PoolSettings
    /// The analyst API's own pool, so long analyst queries cannot take the writes' connections.
    var analystPool: PoolSettings
    var pipelinedConnections: Int
    var statementTimeout: Duration
    /// How long past a statement timeout the client waits for PostgreSQL before giving a statement up.
    var queryGrace: Duration
    /// Most rider reads waiting for a pipelined connection.
    var maximumQueuedReads: Int
    /// The migrations the schema is checked against, by `serve` at start and by the health monitor.
    var migrations: MigrationSource
    /// A file served at `GET /openapi.yaml` in place of the document built into the binary; nil serves that.
    var openAPIPath: String? = nil
    var secret: [UInt8]
    /// Secrets rotated out, still accepted for tokens and cursors they signed.
    var previousSecrets: [[UInt8]]
    /// Whether a cached response waits for proof that no other instance's acknowledged write is unannounced.
    var cacheCoherence: CacheOptions.Coherence = .local
    /// The response cache's limits; nil turns the cache off.
    var cache: TripResponseCacheConfiguration?
    /// The rate limits per caller; nil turns them off.
    var rateLimits: RateLimits.Configuration?
    /// Timeouts and the cap of client connections.
    var connections: ConnectionLimits
    /// The proxies whose PROXY protocol headers name the client; none (the default) reads no header.
    var trustedProxies = TrustedProxies()
    /// The origins granted cross-origin access; nil (the default) allows none.
    var cors: CORSPolicy? = nil
    /// The identity provider whose tokens are accepted too; nil (the default) accepts only the service's own.
    var identityProvider: IdentityProviderOptions.Settings? = nil
}
