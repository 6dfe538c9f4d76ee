import Foundation
import Logging
import NIOCore
import TripHistoryAPI

/// The first handler of every connection, before the HTTP decoder (behind `ProxyProtocolHandler` on a
/// trusted proxy's connection): admits the connection under the cap, runs the connection's timer, and
/// watches the bytes that arrive and whether the client reads. A connection is admitted under its
/// `ClientAddress` when it opens, or, from a trusted proxy, once the PROXY header has named the client.
///
/// The timer ticks at a quarter of the shortest timeout (`ConnectionLimits.tick`) and compares tick counts
/// the guards recorded in `ConnectionActivity`, so a request costs a few stores, never a timer of its own.
/// On a tick the connection is closed when the client took less than `minimumWriteRate` allows in a window of
/// `writeTimeout` while the channel stayed unwritable; a request body went `bodyTimeout` without a byte or is still incomplete `bodyDeadline`
/// after its head; a head took longer than `headTimeout`
/// (answered `408` by `RequestGuard`); or no request came within `idleTimeout` after the last response
/// (`headTimeout` after the opening). A connection over the cap, in all or of its client's address, is
/// answered `503` and closed; a request line longer than the target
/// limit is answered `414` before the decoder has to hold it. Refusals are sent to `RequestGuard` as
/// `ConnectionRefusal` events, since it writes every response of its own.
final class ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let activity: ConnectionActivity
    private let connections: OpenConnections
    private let client: ClientAddress
    /// Whether admission waits for `ProxyProtocolHandler.HeaderRead`, the client not being known before.
    private let awaitsProxyHeader: Bool
    private let logger: Logger
    private let tick: TimeAmount
    private let headTicks: Int
    private let idleTicks: Int
    private let bodyTicks: Int
    private let bodyDeadlineTicks: Int
    private let writeTicks: Int
    /// A request line longer than this holds a target over the limit whatever its method.
    private let maximumRequestLine: Int
    private var timer: Scheduled<Void>?
    /// Bytes waiting to be written at the last tick, while the channel is unwritable.
    private var bufferedAtLastTick = Int.max
    /// Bytes the client took since the current write window began, while the channel is unwritable.
    private var drainedInWindow = 0
    /// Bytes a client must take per write window (`writeTimeout`) while it holds a response back.
    private let minimumBytesPerWindow: Int
    private var started = false
    /// The address key the connection was counted under, while it is.
    private var admitted: RateLimitKey?

    init(
        limits: ConnectionLimits, connections: OpenConnections, client: ClientAddress, awaitsProxyHeader: Bool,
        activity: ConnectionActivity, logger: Logger
    ) {
        self.activity = activity
        self.connections = connections
        self.client = client
        self.awaitsProxyHeader = awaitsProxyHeader
        self.logger = logger
        tick = limits.tick
        headTicks = limits.ticks(limits.headTimeout)
        idleTicks = limits.ticks(limits.idleTimeout)
        bodyTicks = limits.ticks(limits.bodyTimeout)
        bodyDeadlineTicks = limits.ticks(limits.bodyDeadline)
        writeTicks = limits.ticks(limits.writeTimeout)
        let windowMilliseconds = Int(limits.writeTimeout.nanoseconds / 1_000_000)
        minimumBytesPerWindow = max(1, limits.minimumWriteRate * windowMilliseconds / 1000)
        maximumRequestLine = limits.maximumTargetBytes + 32
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
        if activity.refusing { return }
        if activity.readingBody {
            activity.lastBodyRead = activity.now
        } else if activity.headStarted == nil {
            activity.headStarted = activity.now
            activity.requestLineBytes = 0
            activity.requestLineEnded = false
        }
        if !activity.requestLineEnded {
            measureRequestLine(unwrapInboundIn(data))
            if activity.requestLineBytes > maximumRequestLine {
                activity.refusing = true
                context.fireUserInboundEventTriggered(ConnectionRefusal.targetTooLong)
                return
            }
        }
        context.fireChannelRead(data)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        activity.unwritableSince = context.channel.isWritable ? nil : activity.now
        bufferedAtLastTick = .max
        drainedInWindow = 0
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ProxyProtocolHandler.HeaderRead {
            admit(context: context)
            return
        }
        // A refused connection is closed once the client has sent all it had and closed its side, so the
        // refusal is not lost to a reset (the timer closes it if the client never does); a refusal still
        // waiting behind earlier responses is written first.
        if activity.refusing, activity.inFlight == 0, case ChannelEvent.inputClosed = event {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Counts the bytes of a head's first line, up to its line feed, found with `memchr` since it is
    /// searched on every request.
    private func measureRequestLine(_ buffer: ByteBuffer) {
        let lineFeedAt: Int? = buffer.withUnsafeReadableBytes { bytes in
            guard let base = bytes.baseAddress, let found = memchr(base, 0x0A, bytes.count) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
        if let lineFeedAt {
            activity.requestLineBytes += lineFeedAt
            activity.requestLineEnded = true
        } else {
            activity.requestLineBytes += buffer.readableBytes
        }
    }

    private func start(context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        activity.idleSince = activity.now
        scheduleTick(context: context)
        if !awaitsProxyHeader { admit(context: context) }
    }

    /// Counts the connection in under its client's address, or refuses it when a cap is reached.
    private func admit(context: ChannelHandlerContext) {
        guard admitted == nil, !activity.refusing else { return }
        if let key = connections.admit(from: client.address) {
            admitted = key
        } else {
            activity.refusing = true
            logger.debug("Connection refused: the server, or the client's address, is at its connection cap.")
            context.fireUserInboundEventTriggered(ConnectionRefusal.tooManyConnections)
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
            self.activity.now += 1
            if self.expire(context: context) {
                self.scheduleTick(context: context)
            }
        }
    }

    /// Checks the connection against its timeouts; false when it is being closed.
    private func expire(context: ChannelHandlerContext) -> Bool {
        let activity = self.activity
        let now = activity.now
        if let since = activity.unwritableSince {
            // While the client holds the response back, each window of `writeTimeout` it must take at least
            // the minimum rate's worth: one that reads nothing, or a few bytes at a time, is cut. The channel
            // turns writable only after the client took the gap between the write buffer's watermarks, so a
            // client slow enough to matter stays unwritable for whole windows.
            let buffered = (try? context.channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0
            if bufferedAtLastTick != .max, buffered < bufferedAtLastTick {
                drainedInWindow += bufferedAtLastTick - buffered
            }
            bufferedAtLastTick = buffered
            if now - since > writeTicks {
                guard drainedInWindow >= minimumBytesPerWindow else {
                    logger.debug("Connection closed: the client did not read the response fast enough.")
                    context.close(promise: nil)
                    return false
                }
                activity.unwritableSince = now
                drainedInWindow = 0
            }
        }
        if activity.refusing {
            // The refusal is written once earlier responses are; the connection stays until then.
            if activity.inFlight == 0, now - activity.idleSince > headTicks { context.close(promise: nil) }
            return true
        }
        if activity.readingBody {
            if now - activity.lastBodyRead > bodyTicks {
                logger.debug("Connection closed: the request body stopped arriving.")
                context.close(promise: nil)
                return false
            }
            if now - activity.bodyStarted > bodyDeadlineTicks {
                logger.debug("Connection closed: the request body did not arrive completely in time.")
                context.close(promise: nil)
                return false
            }
        } else if activity.inFlight == 0 {
            if let headStarted = activity.headStarted {
                if now - max(headStarted, activity.idleSince) > headTicks {
                    logger.debug("Connection closed: the request head did not arrive in time.")
                    activity.refusing = true
                    context.fireUserInboundEventTriggered(ConnectionRefusal.headTimeout)
                }
            } else if now - activity.idleSince > (activity.servedOne ? idleTicks : headTicks) {
                context.close(promise: nil)
                return false
            }
        }
        return true
    }
}

@available(*, unavailable)
extension ConnectionGuard: Sendable {}
