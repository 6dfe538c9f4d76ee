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
    /// How long a response may stay blocked because the client takes none of it (the channel unwritable and
    /// nothing drained). Exceeded: closed, so an export stops and gives back its slot.
    public var writeTimeout: TimeAmount
    /// Connections open at once; one more is answered `503` with `Retry-After`, then closed.
    public var maximumConnections: Int
    /// Longest request target (path and query) in bytes; longer gets `414`.
    public var maximumTargetBytes: Int
    /// Largest header section in bytes (names and values, the target not counted); larger gets `431`.
    public var maximumHeaderBytes: Int
    /// Most header fields in a request; more get `431`.
    public var maximumHeaderFields: Int

    public static let defaultHeadTimeout = TimeAmount.seconds(5)
    public static let defaultIdleTimeout = TimeAmount.seconds(75)
    public static let defaultBodyTimeout = TimeAmount.seconds(10)
    public static let defaultWriteTimeout = TimeAmount.seconds(30)
    public static let defaultMaximumConnections = 1000

    public init(
        headTimeout: TimeAmount = defaultHeadTimeout, idleTimeout: TimeAmount = defaultIdleTimeout,
        bodyTimeout: TimeAmount = defaultBodyTimeout, writeTimeout: TimeAmount = defaultWriteTimeout,
        maximumConnections: Int = defaultMaximumConnections, maximumTargetBytes: Int = 8192,
        maximumHeaderBytes: Int = 32768, maximumHeaderFields: Int = 100
    ) {
        self.headTimeout = headTimeout
        self.idleTimeout = idleTimeout
        self.bodyTimeout = bodyTimeout
        self.writeTimeout = writeTimeout
        self.maximumConnections = maximumConnections
        self.maximumTargetBytes = maximumTargetBytes
        self.maximumHeaderBytes = maximumHeaderBytes
        self.maximumHeaderFields = maximumHeaderFields
    }

    /// The period of each connection's timer: a quarter of the shortest timeout, so a timeout fires between
    /// its length and a quarter more.
    var tick: TimeAmount {
        let shortest = min(headTimeout, idleTimeout, bodyTimeout, writeTimeout)
        return .nanoseconds(max(shortest.nanoseconds / 4, 1_000_000))
    }

    /// `timeout` in whole ticks, rounded up.
    func ticks(_ timeout: TimeAmount) -> Int {
        let tick = self.tick.nanoseconds
        return Int((timeout.nanoseconds + tick - 1) / tick)
    }
}
