public import HummingbirdCore
public import Logging
public import NIOCore

/// Hummingbird's HTTP/1.1 child channel with the connection guards around its decoder: `ConnectionGuard`
/// first in the pipeline, `RequestGuard` first after the decoder, then the additional handlers (the
/// early-read handler) and the framework. Both guards of a connection share one `ConnectionActivity`.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let responder: HTTPChannelHandler.Responder
    let limits: ConnectionLimits
    let connections: OpenConnections
    let additionalChannelHandlers: @Sendable () -> [any RemovableChannelHandler]
    let logger: Logger

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let activity = ConnectionActivity()
        do {
            try channel.pipeline.syncOperations.addHandler(
                ConnectionGuard(limits: limits, connections: connections, activity: activity, logger: self.logger))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        let limits = self.limits
        let handlers = additionalChannelHandlers
        let requestGuardLogger = self.logger
        let sharedActivity = NIOLoopBound(activity, eventLoop: channel.eventLoop)
        // The decoder's limits are the header limits; the request target counts towards its total, so the
        // target's own limit is added to it.
        let decoder = HTTP1Channel.Configuration.DecoderConfiguration(
            maxHeaderFieldSize: limits.maximumHeaderBytes,
            maxHeaderListSize: limits.maximumHeaderBytes + limits.maximumTargetBytes,
            maxHeaderFieldCount: limits.maximumHeaderFields)
        return HTTP1Channel(
            responder: responder,
            configuration: .init(
                additionalChannelHandlers: [
                    RequestGuard(limits: limits, activity: sharedActivity.value, logger: requestGuardLogger)
                ] + handlers(),
                httpDecoderConfiguration: decoder)
        ).setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await HTTP1Channel(responder: responder).handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with the connection guards enforcing `limits` on every connection (see `ConnectionGuard`,
    /// `RequestGuard`), and `additionalChannelHandlers` after them, before the framework.
    public static func guardedHTTP1(
        limits: ConnectionLimits, logger: Logger,
        additionalChannelHandlers: @escaping @Sendable () -> [any RemovableChannelHandler]
    ) -> HTTPServerBuilder {
        let connections = OpenConnections(capacity: limits.maximumConnections)
        return HTTPServerBuilder { responder in
            GuardedHTTP1Channel(
                responder: responder, limits: limits, connections: connections,
                additionalChannelHandlers: additionalChannelHandlers, logger: logger)
        }
    }
}
