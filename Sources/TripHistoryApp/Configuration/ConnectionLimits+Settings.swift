import NIOCore
import TripHistoryHTTP

/// Timeouts and the cap of client connections: how long a request head, an idle keep-alive connection, a
/// paused body, a whole body and an unread response may take, the write rate a slow reader must keep, and how
/// many connections may be open at once, in all and from one address.
extension ConnectionLimits {
    /// The limits, each from its setting, else the default. Throws on a value that is not a positive integer.
    init(settings: SettingsReader) throws {
        self.init()
        func milliseconds(_ setting: Setting) throws -> TimeAmount? {
            try settings.integer(setting, in: 1...86_400_000).map { .milliseconds(Int64($0)) }
        }
        headTimeout = try milliseconds(.headTimeout) ?? headTimeout
        idleTimeout = try milliseconds(.idleTimeout) ?? idleTimeout
        bodyTimeout = try milliseconds(.bodyTimeout) ?? bodyTimeout
        bodyDeadline = try milliseconds(.bodyDeadline) ?? bodyDeadline
        writeTimeout = try milliseconds(.writeTimeout) ?? writeTimeout
        minimumWriteRate = try settings.integer(.minWriteRate, in: 1...Int(Int32.max)) ?? minimumWriteRate
        maximumConnections = try settings.integer(.maxConnections, in: 1...1_000_000) ?? maximumConnections
        maximumConnectionsPerAddress =
            try settings.integer(.maxConnectionsPerAddress, in: 1...1_000_000) ?? maximumConnectionsPerAddress
    }
}
