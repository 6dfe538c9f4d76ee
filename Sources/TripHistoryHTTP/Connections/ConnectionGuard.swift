import Foundation
import Logging
import NIOCore
import TripHistoryAPI

/// The first handler of every connection, before the HTTP decoder (behind `ProxyProtocolHandler` on a
/// trusted proxy's connection): admits the connection under the cap, runs the connection's timer, and
/// reports the bytes that arrive and whether the client reads to the connection's `ConnectionStateMachine`,
/// then performs what it decides. A connection is admitted under its `ClientAddress` when it opens, or, from
/// a trusted proxy, once the PROXY header has named the client. A connection whose client is a trusted
/// forwarder counts in the global cap only: it carries the requests of many clients, which it names per
/// request, after admission (`ForwardedClientMiddleware`).
///
/// The timer ticks at a quarter of the shortest timeout (`ConnectionLimits.tick`). Refusals the machine raises
/// (`503` at the cap, `408` for a slow head, `414` for a request line over the target limit, before the decoder
/// has to hold it) are sent to `RequestGuard` as `ConnectionRefusal` events, since it writes every response of
/// its own.
final class ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let state: SharedConnectionState
    private let connections: OpenConnections
    private let client: ClientAddress
    /// Whether admission waits for `ProxyProtocolHandler.HeaderRead`, the client not being known before.
    private let awaitsProxyHeader: Bool
    /// The trusted forwarders, whose connections the per-address cap leaves out.
    private let forwarders: TrustedProxies
    private let logger: Logger
    private let tick: TimeAmount
    private var timer: Scheduled<Void>?
    private var started = false
    /// The address key the connection was counted under, while it is.
    private var admitted: RateLimitKey?

    init(
        limits: ConnectionLimits, connections: OpenConnections, client: ClientAddress, awaitsProxyHeader: Bool,
        forwarders: TrustedProxies, state: SharedConnectionState, logger: Logger
    ) {
        self.state = state
        self.connections = connections
        self.client = client
        self.awaitsProxyHeader = awaitsProxyHeader
        self.forwarders = forwarders
        self.logger = logger
        tick = limits.tick
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive {
            // The handlers behind this one are added after it, so a refusal is sent once they are there.
            context.eventLoop.assumeIsolated().execute { self.start(context: context) }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        start(context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch state.machine.bytesRead(unwrapInboundIn(data)) {
        case .pass: context.fireChannelRead(data)
        case .drop: break
        case .raise(let refusal): context.fireUserInboundEventTriggered(refusal)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        state.machine.writabilityChanged(writable: context.channel.isWritable)
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ProxyProtocolHandler.HeaderRead {
            admit(context: context)
            return
        }
        if case ChannelEvent.inputClosed = event, state.machine.inputClosed() {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func start(context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        scheduleTick(context: context)
        if !awaitsProxyHeader { admit(context: context) }
    }

    /// Counts the connection in under its client's address, or refuses it when a cap is reached.
    private func admit(context: ChannelHandlerContext) {
        guard admitted == nil, !state.machine.isRefusing else { return }
        let address = client.address
        if let key = connections.admit(from: address, perAddressCap: !forwarders.contains(address)) {
            admitted = key
        } else if let refusal = state.machine.capReached() {
            logger.debug("Connection refused: the server, or the client's address, is at its connection cap.")
            context.fireUserInboundEventTriggered(refusal)
        }
    }

    private func stop() {
        timer?.cancel()
        timer = nil
        if let admitted {
            self.admitted = nil
            connections.release(admitted)
        }
    }

    private func scheduleTick(context: ChannelHandlerContext) {
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: tick) {
            self.timer = nil
            guard context.channel.isActive else { return }
            let action = self.state.machine.timerFired(
                bufferedBytes: (try? context.channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0)
            switch action {
            case .tick:
                self.scheduleTick(context: context)
            case .raise(let refusal):
                self.logger.debug("Connection closed: the request head did not arrive in time.")
                context.fireUserInboundEventTriggered(refusal)
                self.scheduleTick(context: context)
            case .close(let reason):
                if let message = Self.message(closing: reason) { self.logger.debug(message) }
                context.close(promise: nil)
            }
        }
    }

    /// The debug line of a connection closed for `reason`; nil for the ordinary ends.
    private static func message(closing reason: ConnectionStateMachine.CloseReason) -> Logger.Message? {
        switch reason {
        case .slowReader: "Connection closed: the client did not read the response fast enough."
        case .bodyStalled: "Connection closed: the request body stopped arriving."
        case .bodyIncomplete: "Connection closed: the request body did not arrive completely in time."
        case .idle, .refused: nil
        }
    }
}

@available(*, unavailable)
extension ConnectionGuard: Sendable {}
