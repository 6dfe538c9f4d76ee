public import NIOCore

/// What a client connection may take from the server, enforced by `ConnectionGuard` and `RequestGuard` on
/// every connection, whether the early-read handler or the router answers its requests.
public struct ConnectionLimits: Sendable, Equatable {
    /// How long a request head may take to arrive completely, counted from the connection's opening for its
    /// first request and from the first byte of the head for later ones. Exceeded: `408`, then close.
    public var headTimeout: TimeAmount
    /// How long a keep-alive connection may stay open with no request in progress. Exceeded: closed.
    public var idleTimeout: TimeAmount
    /// How long a request body may go without a byte arriving. Exceeded: closed.
    public var bodyTimeout: TimeAmount
    /// How long a request body may take to arrive completely, from the end of its head, however steadily its
    /// bytes trickle in. Exceeded: closed.
    public var bodyDeadline: TimeAmount
    /// The window over which a client that holds a response back (the channel unwritable) must take at least
    /// `minimumWriteRate`: one that takes less, nothing at all included, is closed, so an export stops and
    /// gives back its slot.
    public var writeTimeout: TimeAmount
    /// Bytes per second a client holding a response back must take, averaged over `writeTimeout`; a client
    /// that keeps up is never measured.
    public var minimumWriteRate: Int
    /// Connections open at once; one more is answered `503` with `Retry-After`, then closed.
    public var maximumConnections: Int
    /// Connections open at once from one client address (an IPv4 address or an IPv6 /64), so one client cannot
    /// hold every slot; one more is answered `503` with `Retry-After`, then closed. Behind a proxy that does not
    /// pass on client addresses, every client has the proxy's: raise it to `maximumConnections` there.
    public var maximumConnectionsPerAddress: Int
    /// Longest request target (path and query) in bytes; longer gets `414`.
    public var maximumTargetBytes: Int
    /// Largest header section in bytes (names and values, the target not counted); larger gets `431`.
    public var maximumHeaderBytes: Int
    /// Most header fields in a request; more get `431`.
    public var maximumHeaderFields: Int

    public static let defaultHeadTimeout = TimeAmount.seconds(5)
    public static let defaultIdleTimeout = TimeAmount.seconds(75)
    public static let defaultBodyTimeout = TimeAmount.seconds(10)
    public static let defaultBodyDeadline = TimeAmount.seconds(30)
    public static let defaultWriteTimeout = TimeAmount.seconds(30)
    public static let defaultMinimumWriteRate = 1024
    public static let defaultMaximumConnections = 1000
    public static let defaultMaximumConnectionsPerAddress = 256

    public init(
        headTimeout: TimeAmount = defaultHeadTimeout, idleTimeout: TimeAmount = defaultIdleTimeout,
        bodyTimeout: TimeAmount = defaultBodyTimeout, bodyDeadline: TimeAmount = defaultBodyDeadline,
        writeTimeout: TimeAmount = defaultWriteTimeout, minimumWriteRate: Int = defaultMinimumWriteRate,
        maximumConnections: Int = defaultMaximumConnections,
        maximumConnectionsPerAddress: Int = defaultMaximumConnectionsPerAddress, maximumTargetBytes: Int = 8192,
        maximumHeaderBytes: Int = 32768, maximumHeaderFields: Int = 100
    ) {
        self.headTimeout = headTimeout
        self.idleTimeout = idleTimeout
        self.bodyTimeout = bodyTimeout
        self.bodyDeadline = bodyDeadline
        self.writeTimeout = writeTimeout
        self.minimumWriteRate = max(minimumWriteRate, 0)
        self.maximumConnections = maximumConnections
        self.maximumConnectionsPerAddress = maximumConnectionsPerAddress
        self.maximumTargetBytes = maximumTargetBytes
        self.maximumHeaderBytes = maximumHeaderBytes
        self.maximumHeaderFields = maximumHeaderFields
    }

    /// The period of each connection's timer: a quarter of the shortest timeout, so a timeout fires between
    /// its length and a quarter more.
    var tick: TimeAmount {
        let shortest = min(headTimeout, idleTimeout, bodyTimeout, bodyDeadline, writeTimeout)
        return .nanoseconds(max(shortest.nanoseconds / 4, 1_000_000))
    }

    /// `timeout` in whole ticks, rounded up.
    func ticks(_ timeout: TimeAmount) -> Int {
        let tick = self.tick.nanoseconds
        return Int((timeout.nanoseconds + tick - 1) / tick)
    }
}
