public import Hummingbird
import Logging
public import NIOCore
import TripHistoryAPI

/// Per-request state: the request id every response and log line carries, and the client's address.
public struct TripHistoryRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The client's `X-Request-ID` when it sent a usable one, else one generated here.
    public var requestID: String
    private let channel: any Channel

    /// The peer of the connection, which counts the rate limit of requests without a valid token; read only
    /// when asked.
    public var remoteAddress: SocketAddress? { channel.remoteAddress }

    public init(source: Source) {
        coreContext = .init(source: source)
        requestID = ""
        channel = source.channel
    }
}
