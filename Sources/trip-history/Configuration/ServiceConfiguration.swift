import Foundation
import TripHistoryAPI
import TripHistoryHTTP

/// Everything `serve` needs, resolved from flags and the environment before anything starts.
struct ServiceConfiguration: Sendable {
    var host: String
    var port: Int
    var connectionString: String
    /// The pool of writes (and other multi-statement work but the analyst API's).
    var writePool: PoolSettings
    /// The analyst API's own pool, so long analyst queries cannot take the writes' connections.
    var analystPool: PoolSettings
    var pipelinedConnections: Int
    var statementTimeout: Duration
    var migrationsDirectory: URL
    var openAPIPath: String
    var secret: [UInt8]
    /// The response cache's limits; nil turns the cache off.
    var cache: TripResponseCacheConfiguration?
}
