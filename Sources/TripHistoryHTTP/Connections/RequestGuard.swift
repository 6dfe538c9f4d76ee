import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import TripHistoryAPI

/// The connection's checks on decoded requests, run by `EarlyReadHandler`, the first handler after the HTTP
/// decoder, on every request part and response end: it reports them to the connection's
/// `ConnectionStateMachine` and writes the problems it decides on, then closes the connection: a target over the
/// limit (`414`), a header section the decoder refused as too large (`431`, instead of the framework's bare
/// `400`), a request that is not HTTP (`400`), and the refusals `ConnectionGuard` raises (`503` at the cap, `408`
/// for a slow head). A refusal waits for the responses of earlier requests, so responses keep their order.
/// `ResponseFinisher` finishes each refusal as it finishes every response written past the framework
/// (`Content-Length`, `Date`, a new request id, `nosniff`, the CORS fields); a refusal is neither charged to the
/// rate limits nor traced nor counted, since no request, or no complete one, was read.
///
/// Not a channel handler of its own: another handler in the pipeline costs every request a pass through it
/// for each of its parts, and the early-read handler already sees them all.
final class RequestGuard {
    private let state: SharedConnectionState
    private let limits: ConnectionLimits
    private let logger: Logger
    private var finisher: ResponseFinisher

    /// Refuses what `limits` do not allow, reporting to `state`; refusals carry the CORS fields of `cors`
    /// (`Vary: Origin` when any origin is configured).
    init(limits: ConnectionLimits, state: SharedConnectionState, logger: Logger, cors: CORSPolicy? = nil) {
        self.limits = limits
        self.state = state
        self.logger = logger
        self.finisher = ResponseFinisher(cors: cors)
    }

    /// Reports a request part that arrived; false when it must be dropped, since the connection is refused.
    func admit(_ part: HTTPRequestPart, context: ChannelHandlerContext) -> Bool {
        let action =
            switch part {
            case .head(let head): state.machine.headDecoded(targetBytes: head.path?.utf8.count)
            case .body: state.machine.bodyDecoded()
            case .end: state.machine.endDecoded()
            }
        switch action {
        case .pass:
            return true
        case .drop:
            return false
        case .refuse(let problem):
            write(problem, context: context)
            return false
        }
    }

    /// Reports that a response's end was written, then writes a refusal that was waiting for it.
    func responseEnded(context: ChannelHandlerContext) {
        if let pending = state.machine.responseEnded() { write(pending, context: context) }
    }

    /// Answers a refusal `ConnectionGuard` raised.
    func refuse(_ refusal: ConnectionRefusal, context: ChannelHandlerContext) {
        switch refusal {
        case .tooManyConnections: refuse(with: .tooManyConnections, context: context)
        case .headTimeout: refuse(with: .requestTimeout, context: context)
        case .targetTooLong: refuse(with: .uriTooLong(limit: limits.maximumTargetBytes), context: context)
        }
    }

    /// Answers a request the decoder could not read; false for an error that is not the decoder's.
    func refuse(decoderError error: any Error, context: ChannelHandlerContext) -> Bool {
        guard let error = error as? HTTPParserError else { return false }
        // The decoder reports a head over its limits (set from `limits`) as a header overflow; the request
        // target is refused earlier when it is the part that is too long.
        if error == .headerOverflow {
            refuse(
                with: .headersTooLarge(
                    maximumBytes: limits.maximumHeaderBytes, maximumFields: limits.maximumHeaderFields),
                context: context)
        } else {
            logger.debug("Malformed request refused.", metadata: ["error": "\(error)"])
            refuse(with: .malformedRequest, context: context)
        }
        return true
    }

    /// Stops passing anything on and answers `problem` once no earlier response is in flight.
    private func refuse(with problem: Problem, context: ChannelHandlerContext) {
        if let now = state.machine.refuse(problem) { write(now, context: context) }
    }

    /// Writes `problem` with `Connection: close`, then closes the connection's output; `ConnectionGuard`
    /// closes the rest when the client closes its side or its timer finds the connection still open.
    private func write(_ problem: Problem, context: ChannelHandlerContext) {
        let exchange = ResponseFinisher.Exchange(requestID: ResponseFinisher.requestID(for: [:]))
        let response = problem.response(requestID: exchange.requestID)
        var headers = response.headers
        headers[.connection] = "close"
        let body = response.bytes ?? ByteBuffer()
        finisher.finishWritten(
            &headers, status: response.status, bodyBytes: body.readableBytes, exchange: exchange, logger: logger)
        context.write(
            NIOAny(HTTPResponsePart.head(HTTPResponse(status: response.status, headerFields: headers))), promise: nil)
        context.write(NIOAny(HTTPResponsePart.body(body)), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(NIOAny(HTTPResponsePart.end(nil)), promise: written)
        written.futureResult.assumeIsolated().whenComplete { result in
            switch result {
            case .success: context.close(mode: .output, promise: nil)
            case .failure: context.close(promise: nil)
            }
        }
    }
}

@available(*, unavailable)
extension RequestGuard: Sendable {}
