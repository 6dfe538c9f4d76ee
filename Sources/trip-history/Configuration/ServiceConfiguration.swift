import Foundation
import TripHistoryAPI
import TripHistoryHTTP

/// Everything `serve` needs, resolved from flags and the environment before anything starts.
struct ServiceConfiguration: Sendable {
    var host: String
    var port: Int
    var connectionString: String
    var poolSize: Int
    var pipelinedConnections: Int
    var statementTimeout: Duration
    var migrationsDirectory: URL
    var openAPIPath: String
    var secret: [UInt8]
    /// The response cache's limits; nil turns the cache off.
    var cache: TripResponseCacheConfiguration?
    /// Timeouts and the cap of client connections.
    var connections: ConnectionLimits
}
