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

    /// The client a trusted forwarder named in this request's `X-Forwarded-For` or `Forwarded`, set by
    /// `ForwardedClientMiddleware` (only there when forwarders are configured); nil for none.
    var forwardedClient: SocketAddress?

    /// The request's client, the one address every per-client decision of a request uses (the rate limit of
    /// requests without a valid token): the client a trusted forwarder named for this request, else the
    /// connection's client (`connectionClient`). Read only when asked.
    public var clientAddress: SocketAddress? {
        forwardedClient ?? connectionClient
    }

    /// The connection's client (`ClientAddress`: its peer, or the client a trusted proxy's PROXY header
    /// named); the peer when the request came through no connection of the server (router tests).
    var connectionClient: SocketAddress? {
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
