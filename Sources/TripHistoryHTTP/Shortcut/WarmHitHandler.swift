import Dispatch
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes
import TripHistoryAPI

/// Answers, from the channel pipeline, the requests whose response is already in memory (a rider read the
/// response cache holds, the liveness probe) and passes every other request on to the router, once and
/// unchanged.
///
/// Why: a warm hit costs almost nothing to look up, yet the framework's way to it (request stream, task hops,
/// router, middleware, response writer) costs as much again as the socket work. This handler asks one entry
/// point, `answer` (built from `RiderTrips.storedResponse(to:)` and `OperationalRoutes.livenessResponse(to:)`),
/// which parses and checks the request with the API's own code and never waits. Anything else (a miss, a
/// problem to report, a token never verified, another route) is passed on and answered by the router alone.
///
/// The connection's state is one enum (as in swift-nio's `HTTPServerPipelineHandler`): while a request passed
/// on has not been fully answered, later requests are passed on too, so pipelined responses never overtake
/// each other. Only a plain GET without a body that keeps the connection open is answered here. Responses
/// written here get the request id and the headers of every response (`ProblemMiddleware.requestID(for:)`
/// and `stamp(_:requestID:)`), `Date` and `Content-Length`, and are counted in the same `RequestMetrics` as
/// the router's.
public final class WarmHitHandler: ChannelDuplexHandler, RemovableChannelHandler {
    public typealias InboundIn = HTTPRequestPart
    public typealias InboundOut = HTTPRequestPart
    public typealias OutboundIn = HTTPResponsePart
    public typealias OutboundOut = HTTPResponsePart

    /// What the handler is doing with the connection's current request.
    enum State: Equatable {
        /// Between requests, with every request passed on answered: the next head may be answered here.
        case idle
        /// A head answered from memory; the answer is written when the request's end arrives.
        case answering(Answer)
        /// Requests passed on whose responses are not yet completely written (`unanswered`), and whether the
        /// parts of one are still arriving (`receiving`).
        case passingOn(unanswered: Int, receiving: Bool)
    }

    /// A stored response waiting for its request's end.
    struct Answer: Equatable {
        let stored: StoredResponse
        let requestID: String
        let started: UInt64

        static func == (lhs: Answer, rhs: Answer) -> Bool {
            lhs.requestID == rhs.requestID && lhs.started == rhs.started && lhs.stored.route == rhs.stored.route
        }
    }

    private let answer: @Sendable (HTTPRequest) -> StoredResponse?
    private let metrics: RequestMetrics
    private(set) var state = State.idle
    private var needsFlush = false
    private var date = HTTPDate()

    /// `answer` gives the stored response for a request head, or nil to pass the request on; answers are
    /// counted in `metrics`.
    public init(metrics: RequestMetrics, answer: @escaping @Sendable (HTTPRequest) -> StoredResponse?) {
        self.answer = answer
        self.metrics = metrics
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch (state, part) {
        case (.idle, .head(let head)):
            let started = DispatchTime.now().uptimeNanoseconds
            if Self.mayAnswer(head), let stored = answer(head) {
                state = .answering(
                    Answer(
                        stored: stored, requestID: ProblemMiddleware.requestID(for: head.headerFields),
                        started: started))
            } else {
                state = .passingOn(unanswered: 1, receiving: true)
                context.fireChannelRead(data)
            }
        case (.passingOn(let unanswered, _), .head):
            state = .passingOn(unanswered: unanswered + 1, receiving: true)
            context.fireChannelRead(data)
        case (.passingOn(let unanswered, true), .end):
            // The router may have answered before the request ended (an early refusal).
            state = unanswered == 0 ? .idle : .passingOn(unanswered: unanswered, receiving: false)
            context.fireChannelRead(data)
        case (.passingOn, .body):
            context.fireChannelRead(data)
        case (.answering(let answer), .end):
            state = .idle
            write(answer, context: context)
        case (.answering, .head), (.answering, .body), (.idle, .body), (.idle, .end), (.passingOn(_, false), .end):
            // The HTTP decoder never sends these (a head's parts end before the next head; a request answered
            // here has no body); closing is the only safe answer to a stream out of order.
            context.close(promise: nil)
        }
    }

    public func channelReadComplete(context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), case .passingOn(let unanswered, let receiving) = state {
            state = unanswered == 1 && !receiving ? .idle : .passingOn(unanswered: unanswered - 1, receiving: receiving)
        }
        context.write(data, promise: promise)
    }

    /// A plain GET without a body that keeps the connection open: no `Connection` header other than
    /// `keep-alive` (which many HTTP/1.1 clients still send), so closing and upgrades stay the framework's.
    static func mayAnswer(_ head: HTTPRequest) -> Bool {
        guard head.method == .get, head.headerFields[.transferEncoding] == nil else { return false }
        let length = head.headerFields[.contentLength]
        guard length == nil || length == "0" else { return false }
        return head.headerFields[values: .connection].allSatisfy { value in
            value.split(separator: ",").allSatisfy {
                $0.trimmingCharacters(in: .whitespaces).lowercased() == "keep-alive"
            }
        }
    }

    private func write(_ answer: Answer, context: ChannelHandlerContext) {
        let response = answer.stored.response
        var headers = response.headers
        let body = response.bytes
        if let body { headers[.contentLength] = String(body.readableBytes) }
        ProblemMiddleware.stamp(&headers, requestID: answer.requestID)
        headers[.date] = date.value(secondsSince1970: Int64(Date().timeIntervalSince1970))
        context.write(
            wrapOutboundOut(.head(HTTPResponse(status: response.status, headerFields: headers))), promise: nil)
        if let body {
            context.write(wrapOutboundOut(.body(body)), promise: nil)
        }
        context.write(wrapOutboundOut(.end(nil)), promise: nil)
        needsFlush = true
        metrics.record(
            route: answer.stored.route, method: .get, status: response.status,
            nanoseconds: DispatchTime.now().uptimeNanoseconds - answer.started)
    }
}
