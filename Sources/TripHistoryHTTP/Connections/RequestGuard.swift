import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import TripHistoryAPI

/// The connection's checks on decoded requests, run by `EarlyReadHandler`, the first handler after the HTTP
/// decoder, on every request part and response end: it records them in `ConnectionActivity` for
/// `ConnectionGuard`'s timer, and answers what must not reach a route with a problem, then closes the
/// connection: a target over the limit (`414`), a header section the decoder refused as too large (`431`,
/// instead of the framework's bare `400`), a request that is not HTTP (`400`), and the refusals
/// `ConnectionGuard` raises (`503` at the cap, `408` for a slow head). A refusal waits for the responses of
/// earlier requests, so responses keep their order.
///
/// Not a channel handler of its own: another handler in the pipeline costs every request a pass through it
/// for each of its parts, and the early-read handler already sees them all.
final class RequestGuard {
    private let activity: ConnectionActivity
    private let limits: ConnectionLimits
    private let logger: Logger
    /// A refusal to write once the responses in flight are written.
    private var pending: Problem?
    /// Set once a refusal is decided: nothing more is passed on.
    private var refused = false
    private var date = HTTPDate()

    init(limits: ConnectionLimits, activity: ConnectionActivity, logger: Logger) {
        self.limits = limits
        self.activity = activity
        self.logger = logger
    }

    /// Records a request part that arrived; false when it must be dropped, since the connection is refused.
    func admit(_ part: HTTPRequestPart, context: ChannelHandlerContext) -> Bool {
        if refused { return false }
        switch part {
        case .head(let head):
            activity.headStarted = nil
            activity.requestLineEnded = true
            if let path = head.path, path.utf8.count > limits.maximumTargetBytes {
                refuse(with: .uriTooLong(limit: limits.maximumTargetBytes), context: context)
                return false
            }
            activity.inFlight += 1
            activity.readingBody = true
            activity.lastBodyRead = activity.now
            activity.bodyStarted = activity.now
        case .body:
            break
        case .end:
            activity.readingBody = false
        }
        return true
    }

    /// Records that a response's end was written, then writes a refusal that was waiting for it.
    func responseEnded(context: ChannelHandlerContext) {
        activity.inFlight -= 1
        if activity.inFlight == 0 {
            activity.idleSince = activity.now
            activity.servedOne = true
            if let pending {
                self.pending = nil
                write(pending, context: context)
            }
        }
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
        guard !refused else { return }
        refused = true
        activity.refusing = true
        activity.readingBody = false
        if activity.inFlight > 0 {
            pending = problem
        } else {
            write(problem, context: context)
        }
    }

    /// Writes `problem` with `Connection: close`, then closes the connection's output; `ConnectionGuard`
    /// closes the rest when the client closes its side or its timer finds the connection still open.
    private func write(_ problem: Problem, context: ChannelHandlerContext) {
        let requestID = ProblemMiddleware.requestID(for: [:])
        let response = problem.response(requestID: requestID)
        var headers = response.headers
        let body = response.bytes ?? ByteBuffer()
        headers[.contentLength] = String(body.readableBytes)
        headers[.connection] = "close"
        ProblemMiddleware.stamp(&headers, requestID: requestID)
        headers[.date] = date.value(secondsSince1970: Int64(Date().timeIntervalSince1970))
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
