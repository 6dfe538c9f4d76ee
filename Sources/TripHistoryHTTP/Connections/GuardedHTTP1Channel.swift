public import HTTPTypes
public import HummingbirdCore
public import Logging
import NIOCore
import TripHistoryAPI

/// Hummingbird's HTTP/1.1 child channel with the connection guards around its decoder: `ConnectionGuard`
/// first in the pipeline (after `ProxyProtocolHandler` when the peer is a trusted proxy), then the decoder,
/// then the early-read handler (which runs `RequestGuard`) and the framework. Both guards of a connection
/// share one `SharedConnectionState`; every part that counts per client reads the connection's `ClientAddress`,
/// which the router's requests find as `ClientAddress.current`.
struct GuardedHTTP1Channel: ServerChildChannel {
    /// The framework's channel with the connection's client.
    struct Value: ServerChildChannelValue {
        let asyncChannel: HTTP1Channel.Value
        let client: ClientAddress
        var channel: any Channel { asyncChannel.channel }
    }

    let responder: HTTPChannelHandler.Responder
    let limits: ConnectionLimits
    let connections: OpenConnections
    let trustedProxies: TrustedProxies
    let metrics: RequestMetrics
    let answer: @Sendable (HTTPRequest) -> EarlyRead?
    let cors: CORSPolicy?
    let tracing: RequestTracing?
    let rateLimits: RateLimitGate?
    let logger: Logger

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let state = SharedConnectionState(limits: limits)
        let peer = channel.remoteAddress
        let client = ClientAddress(peer)
        let fromProxy = trustedProxies.contains(peer)
        do {
            if fromProxy {
                try channel.pipeline.syncOperations.addHandler(
                    ProxyProtocolHandler(client: client, logger: self.logger))
            }
            try channel.pipeline.syncOperations.addHandler(
                ConnectionGuard(
                    limits: limits, connections: connections, client: client, awaitsProxyHeader: fromProxy,
                    state: state, logger: self.logger))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        let requestGuard = RequestGuard(limits: limits, state: state, logger: self.logger)
        // Hummingbird takes the handlers from a `@Sendable` closure, which may hold this connection's handler
        // only bound to its event loop.
        let earlyReads = NIOLoopBound(
            EarlyReadHandler(
                requestGuard: requestGuard, metrics: metrics, logger: self.logger, cors: cors, tracing: tracing,
                rateLimits: rateLimits, answer: answer),
            eventLoop: channel.eventLoop)
        // The decoder's limits are the header limits; the request target counts towards its total, so the
        // target's own limit is added to it.
        let decoder = HTTP1Channel.Configuration.DecoderConfiguration(
            maxHeaderFieldSize: limits.maximumHeaderBytes,
            maxHeaderListSize: limits.maximumHeaderBytes + limits.maximumTargetBytes,
            maxHeaderFieldCount: limits.maximumHeaderFields)
        return HTTP1Channel(
            responder: responder,
            configuration: .init(additionalChannelHandlers: [earlyReads.value], httpDecoderConfiguration: decoder)
        ).setup(channel: channel, logger: logger).map { Value(asyncChannel: $0, client: client) }
    }

    func handle(value: Value, logger: Logger) async {
        await ClientAddress.$current.withValue(value.client) {
            await HTTP1Channel(responder: responder).handle(value: value.asyncChannel, logger: logger)
        }
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with the connection guards enforcing `limits` on every connection (see `ConnectionGuard`,
    /// `RequestGuard`), the PROXY protocol header read first on connections from `trustedProxies` (see
    /// `ProxyProtocolHandler`; none by default), and the early-read handler answering what `answer` says it may before the framework
    /// (nil for every request passes them all on), counting in `metrics` like the router and adding the CORS
    /// fields of `cors` as the router does, tracing its requests with `tracing` when given, and charging each
    /// caller's read to `rateLimits` when given (the router's `RateLimitMiddleware` should share that gate).
    public static func guardedHTTP1(
        limits: ConnectionLimits, trustedProxies: TrustedProxies = TrustedProxies(), logger: Logger,
        metrics: RequestMetrics, cors: CORSPolicy? = nil, tracing: RequestTracing? = nil,
        rateLimits: RateLimitGate? = nil, answer: @escaping @Sendable (HTTPRequest) -> EarlyRead?
    ) -> HTTPServerBuilder {
        let connections = OpenConnections(
            capacity: limits.maximumConnections, perAddress: limits.maximumConnectionsPerAddress)
        return HTTPServerBuilder { responder in
            GuardedHTTP1Channel(
                responder: responder, limits: limits, connections: connections, trustedProxies: trustedProxies,
                metrics: metrics, answer: answer,
                cors: cors, tracing: tracing, rateLimits: rateLimits, logger: logger)
        }
    }
}
