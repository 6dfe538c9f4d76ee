public import HTTPTypes
public import HummingbirdCore
public import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1
import TripHistoryAPI

/// Hummingbird's HTTP/1.1 child channel with the connection guards around its decoder: `ConnectionGuard`
/// first in the pipeline (after `ProxyProtocolHandler` when the peer is a trusted proxy), then NIO's encoder and
/// decoder, the HTTP types codec, the early-read handler (which runs `RequestGuard`) and the framework. Both
/// guards of a connection share one `SharedConnectionState`; every part that counts per client reads the
/// connection's `ClientAddress`, which the router's requests find as `ClientAddress.current`.
///
/// The pipeline is the one `HTTP1Channel.setup` builds, with one difference: the encoder and the decoder are
/// not paired. Paired, the decoder queues each request's method in the encoder, which takes one off for each
/// response head it encodes; the early-read handler writes its answers as bytes past the encoder, so that queue
/// would grow by one for every answer and lose its order. The handler drops the bodies of the framework's
/// responses to `HEAD` and `CONNECT` itself, which is what the pairing was for.
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
    let trustedForwarders: TrustedForwarders
    let metrics: RequestMetrics
    let answer: @Sendable (HTTPRequest) -> EarlyRead?
    let cors: CORSPolicy?
    let tracing: RequestTracing?
    let rateLimits: RateLimitGate?
    let logger: Logger

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let state = SharedConnectionState(limits: limits)
            let peer = channel.remoteAddress
            let client = ClientAddress(peer)
            let fromProxy = trustedProxies.contains(peer)
            let operations = channel.pipeline.syncOperations
            if fromProxy {
                try operations.addHandler(ProxyProtocolHandler(client: client, logger: self.logger))
            }
            try operations.addHandler(
                ConnectionGuard(
                    limits: limits, connections: connections, client: client, awaitsProxyHeader: fromProxy,
                    forwarders: trustedForwarders.addresses, state: state, logger: self.logger))
            // The decoder's limits are the header limits; the request target counts towards its total, so the
            // target's own limit is added to it.
            var decoderLimits = NIOHTTPDecoderLimitConfiguration()
            decoderLimits.maxHeaderFieldSize = limits.maximumHeaderBytes
            decoderLimits.maxHeaderListSize = limits.maximumHeaderBytes + limits.maximumTargetBytes
            decoderLimits.maxHeaderFieldCount = limits.maximumHeaderFields
            try operations.addHandler(HTTPResponseEncoder(configuration: .init()))
            try operations.addHandler(
                ByteToMessageHandler(
                    HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes, limitConfiguration: decoderLimits)))
            try operations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try operations.addHandler(
                EarlyReadHandler(
                    requestGuard: RequestGuard(limits: limits, state: state, logger: self.logger, cors: cors),
                    metrics: metrics, logger: self.logger, cors: cors, tracing: tracing, rateLimits: rateLimits,
                    answer: answer))
            try operations.addHandler(HTTPConnectionStateHandler(logger: logger))
            let asyncChannel = try HTTP1Channel.Value(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
            return Value(asyncChannel: asyncChannel, client: client)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await ClientAddress.$current.withValue(value.client) {
            await HTTP1Channel(responder: responder).handle(value: value.asyncChannel, logger: logger)
        }
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with the connection guards enforcing `limits` on every connection (see `ConnectionGuard`,
    /// `RequestGuard`; a connection from one of `trustedForwarders` counts in the global cap only), the PROXY
    /// protocol header read first on connections from `trustedProxies` (see `ProxyProtocolHandler`; none by
    /// default), and the early-read handler answering what `answer` says it may before the framework
    /// (nil for every request passes them all on), counting in `metrics` like the router and adding the CORS
    /// fields of `cors` as the router does, tracing its requests with `tracing` when given, and charging each
    /// caller's read to `rateLimits` when given (the router's `ResponseFinishingMiddleware` should share that
    /// gate).
    public static func guardedHTTP1(
        limits: ConnectionLimits, trustedProxies: TrustedProxies = TrustedProxies(),
        trustedForwarders: TrustedForwarders = TrustedForwarders(), logger: Logger,
        metrics: RequestMetrics, cors: CORSPolicy? = nil, tracing: RequestTracing? = nil,
        rateLimits: RateLimitGate? = nil, answer: @escaping @Sendable (HTTPRequest) -> EarlyRead?
    ) -> HTTPServerBuilder {
        let connections = OpenConnections(
            capacity: limits.maximumConnections, perAddress: limits.maximumConnectionsPerAddress)
        return HTTPServerBuilder { responder in
            GuardedHTTP1Channel(
                responder: responder, limits: limits, connections: connections, trustedProxies: trustedProxies,
                trustedForwarders: trustedForwarders, metrics: metrics, answer: answer,
                cors: cors, tracing: tracing, rateLimits: rateLimits, logger: logger)
        }
    }
}
