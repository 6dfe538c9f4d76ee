public import HTTPTypes
public import HummingbirdCore
public import Logging
public import NIOCore
public import TripHistoryAPI

/// Hummingbird's HTTP/1.1 child channel with the connection guards around its decoder: `ConnectionGuard`
/// first in the pipeline, then the decoder, then the early-read handler (which runs `RequestGuard`) and the
/// framework. Both guards of a connection share one `ConnectionActivity`.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let responder: HTTPChannelHandler.Responder
    let limits: ConnectionLimits
    let connections: OpenConnections
    let metrics: RequestMetrics
    let answer: @Sendable (HTTPRequest) -> EarlyAnswer?
    let cors: CORSPolicy?
    let logger: Logger

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let activity = ConnectionActivity()
        do {
            try channel.pipeline.syncOperations.addHandler(
                ConnectionGuard(limits: limits, connections: connections, activity: activity, logger: self.logger))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        let requestGuard = RequestGuard(limits: limits, activity: activity, logger: self.logger)
        // Hummingbird takes the handlers from a `@Sendable` closure, which may hold this connection's handler
        // only bound to its event loop.
        let earlyReads = NIOLoopBound(
            EarlyReadHandler(
                requestGuard: requestGuard, metrics: metrics, logger: self.logger, cors: cors, answer: answer),
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
        ).setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await HTTP1Channel(responder: responder).handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with the connection guards enforcing `limits` on every connection (see `ConnectionGuard`,
    /// `RequestGuard`), and the early-read handler answering what `answer` says it may before the framework
    /// (nil for every request passes them all on), counting in `metrics` like the router and adding the CORS
    /// fields of `cors` as the router does.
    public static func guardedHTTP1(
        limits: ConnectionLimits, logger: Logger, metrics: RequestMetrics, cors: CORSPolicy? = nil,
        answer: @escaping @Sendable (HTTPRequest) -> EarlyAnswer?
    ) -> HTTPServerBuilder {
        let connections = OpenConnections(
            capacity: limits.maximumConnections, perAddress: limits.maximumConnectionsPerAddress)
        return HTTPServerBuilder { responder in
            GuardedHTTP1Channel(
                responder: responder, limits: limits, connections: connections, metrics: metrics, answer: answer,
                cors: cors, logger: logger)
        }
    }
}
