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
    private let client: ClientAddress?

    /// The connection's client (`ClientAddress`: its peer, or the client a trusted proxy's PROXY header
    /// named), which counts the rate limit of requests without a valid token; the peer when the request
    /// came through no connection of the server (router tests). Read only when asked.
    public var clientAddress: SocketAddress? {
        guard let client else { return channel.remoteAddress }
        return client.address
    }

    public init(source: Source) {
        coreContext = .init(source: source)
        requestID = ""
        channel = source.channel
        client = ClientAddress.current
    }
}
