import Logging
import NIOCore

/// The first handler of a connection whose peer is a trusted proxy: reads the PROXY protocol version 2
/// header (`ProxyHeader`) before anything else, records the client it names in the connection's
/// `ClientAddress`, tells `ConnectionGuard` (which admits the connection under the caps only then), passes
/// the bytes after the header on intact and leaves the pipeline. A header that is malformed, too long or not
/// a version 2 header closes the connection without an answer: the peer is a proxy, not a client to explain
/// HTTP to. One that does not arrive is cut by `ConnectionGuard`'s timer after the head timeout, as a
/// connection that sends nothing.
///
/// Connections from other peers never get this handler, so a PROXY header from them reaches the HTTP
/// decoder and is refused as a malformed request: a client cannot choose the address it is counted under.
final class ProxyProtocolHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// Sent to the handlers behind this one once the header is read and `ClientAddress` holds the client.
    struct HeaderRead: Sendable {}

    private let client: ClientAddress
    private let logger: Logger
    /// The bytes received while the header is incomplete.
    private var buffered: ByteBuffer?
    /// Set once the header was refused: what else arrives is dropped.
    private var refused = false

    init(client: ClientAddress, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refused { return }
        var bytes = unwrapInboundIn(data)
        if var buffered {
            self.buffered = nil
            buffered.writeBuffer(&bytes)
            bytes = buffered
        }
        switch ProxyHeader.parse(bytes) {
        case .incomplete:
            buffered = bytes
        case .invalid(let reason):
            refused = true
            logger.debug(
                "Connection from a trusted proxy closed: its PROXY header is invalid.",
                metadata: ["reason": "\(reason)"])
            context.close(promise: nil)
        case .complete(let header):
            if let source = header.source { client.set(source) }
            bytes.moveReaderIndex(forwardBy: header.length)
            context.fireUserInboundEventTriggered(HeaderRead())
            if bytes.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(bytes)) }
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }
}

@available(*, unavailable)
extension ProxyProtocolHandler: Sendable {}
