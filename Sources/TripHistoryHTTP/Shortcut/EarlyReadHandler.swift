import Dispatch
import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import Tracing
import TripHistoryAPI

/// Answers the rider reads and the liveness probe from the channel pipeline, before the framework, through
/// the API's own entry point; passes every other request on to the router, once and unchanged.
///
/// Why: the framework's way to a route (request stream, task hops, router, middleware, response writer) costs
/// about as much again as the socket work of a warm hit, and a large share of an uncached page
/// (`BENCHMARKS.md`). The handler asks one function, `answer` (`TripHistoryServer.earlyAnswer(to:)`: the
/// probe, then a path matched against the route table by `EarlyReadRoutes` and, for a rider read answered
/// early, answered by `RiderTrips.earlyAnswer(_:path:head:)`), which parses and checks the request with the
/// routes' own code and never waits. A stored response is written at once; a checked read that is not stored
/// is computed by the same code the route runs (cache, use case, rendering) in a task, and its answer, or the
/// problem its failure maps to (`ResponseFinisher.response(for:requestID:logger:)`), is written back on the
/// event loop: computed once, never handed to the router afterwards. Anything else (a token never verified, a problem in the
/// request, another route, a body, `Connection: close`) goes to the router. A read answered here is charged to
/// its caller through the same `ResponseFinisher` and `RateLimitGate` as the router's requests: refused, it is
/// answered here with its 429; either way its response gets the rate-limit fields.
///
/// Which request is answered where, and in what order, is decided by `EarlyReadStateMachine`: while a request
/// passed on is unanswered, later requests are passed on too; while a computation runs, later requests are held
/// (and the socket is left alone once `heldPartsBeforeBackPressure` parts are); so responses keep their order.
/// The handler performs what it decides.
/// Responses written here are finished by `ResponseFinisher`, as the router's are: `Content-Length` and `Date`
/// (which the framework writes for the router's), the rate-limit fields, the request id, the fields of every
/// response, CORS fields included, the end of the request span, and the count in the same `RequestMetrics`.
/// With tracing, each request answered here gets its request span through the router's own `RequestTracing`,
/// and a computation runs in its context.
///
/// It is the first handler after the HTTP decoder, so it also runs the connection's `RequestGuard` on every
/// request part, response end, refusal event and decoder error, before anything else.
final class EarlyReadHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The handler's decisions; see `EarlyReadStateMachine`.
    typealias Machine = EarlyReadStateMachine<Answer, Computation, NIOAny>
    typealias State = Machine.State

    /// A response ready to write, with what finishing it needs.
    struct Answer {
        let response: APIResponse
        let exchange: ResponseFinisher.Exchange
    }

    /// A read to compute, with what finishing its response needs.
    struct Computation {
        let compute: @Sendable () async throws -> APIResponse
        let exchange: ResponseFinisher.Exchange
    }

    /// Parts held behind a computation before the handler stops reading from the socket.
    static let heldPartsBeforeBackPressure = 16

    /// What the handler is doing with the connection's current request.
    var state: State { machine.state }

    private let requestGuard: RequestGuard
    private let answer: @Sendable (HTTPRequest) -> EarlyRead?
    private var finisher: ResponseFinisher
    private let logger: Logger
    private var machine = Machine(heldPartsBeforeBackPressure: EarlyReadHandler.heldPartsBeforeBackPressure)
    private var needsFlush = false
    /// Where answers written here go as bytes: the context of the connection's HTTP/1 encoder, whose writes
    /// skip the encoder itself; this handler's own context when no encoder is before it (unit tests).
    private var answerOutlet: ChannelHandlerContext?
    /// For each request passed on whose response is not yet completely written, whether that response must
    /// not carry a body (it answers a `HEAD` or `CONNECT`; RFC 9112 §6.3), oldest first.
    private var bodilessResponses = CircularBuffer<Bool>(initialCapacity: 2)

    /// `requestGuard` checks every request part first; `answer` says how a request head is answered here, or
    /// nil to pass the request on; responses are finished by a `ResponseFinisher` of `metrics`, `cors`,
    /// `tracing` and `rateLimits` (which decides whether a caller's read answered here may proceed), and
    /// failures that are not problems are logged to `logger`.
    init(
        requestGuard: RequestGuard, metrics: RequestMetrics, logger: Logger, cors: CORSPolicy? = nil,
        tracing: RequestTracing? = nil, rateLimits: RateLimitGate? = nil,
        answer: @escaping @Sendable (HTTPRequest) -> EarlyRead?
    ) {
        self.requestGuard = requestGuard
        self.answer = answer
        self.finisher = ResponseFinisher(metrics: metrics, cors: cors, tracing: tracing, rateLimits: rateLimits)
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        answerOutlet = (try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)) ?? context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        answerOutlet = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        guard requestGuard.admit(part, context: context) else { return }
        receive(part, data: data, context: context)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let refusal = event as? ConnectionRefusal {
            requestGuard.refuse(refusal, context: context)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !requestGuard.refuse(decoderError: error, context: context) {
            context.fireErrorCaught(error)
        }
    }

    /// Answers, holds or passes on a part the guard admitted; `data` is the part as it arrived.
    private func receive(_ part: HTTPRequestPart, data: NIOAny, context: ChannelHandlerContext) {
        let action: Machine.Action
        switch part {
        case .head(let head): action = machine.head(data) { outcome(of: head) }
        case .body: action = machine.body(data)
        case .end: action = machine.end(data)
        }
        switch action {
        case .passOn:
            if case .head(let head) = part { bodilessResponses.append(head.method == .head || head.method == .connect) }
            context.fireChannelRead(data)
        case .none: break
        case .write(let answer): write(answer, context: context)
        case .start(let computation): start(computation, context: context)
        case .close: context.close(promise: nil)
        }
    }

    /// How a head that arrives between requests is answered: from memory, by a computation here, or by the
    /// router.
    private func outcome(of head: HTTPRequest) -> Machine.HeadOutcome {
        let started = DispatchTime.now().uptimeNanoseconds
        // The span starts only once the request is known to be answered here (the router traces the others),
        // dated from its arrival.
        let arrived = finisher.tracing == nil ? nil : DefaultTracerClock.now
        guard let early = Self.mayAnswer(head) ? answer(head) : nil else { return .passOn }
        let span = arrived.flatMap { finisher.tracing?.start(head, at: $0) }
        var exchange = finisher.exchange(for: head.headerFields, route: early.route, started: started, span: span)
        // Charged once the read is known to be answered here: a read passed on is charged by the router.
        if let caller = early.answer.caller, let decision = finisher.rateLimitDecision(for: caller) {
            exchange.rateLimit = decision.fields
            guard decision.admitted else {
                return .answer(
                    Answer(response: decision.problem.response(requestID: exchange.requestID), exchange: exchange))
            }
        }
        switch early.answer {
        case .stored(let stored):
            if let span, span.isRecording {
                if let outcome = stored.cacheOutcome {
                    span.attributes[RequestSpanAttribute.cacheOutcome] = outcome
                }
                if let role = stored.role { span.attributes[RequestSpanAttribute.role] = role }
            }
            return .answer(Answer(response: stored.response, exchange: exchange))
        case .computed(_, let compute):
            return .compute(Computation(compute: compute, exchange: exchange))
        }
    }

    /// Runs the computation off the event loop and comes back to it with the response, or with the problem
    /// its failure maps to.
    private func start(_ computation: Computation, context: ChannelHandlerContext) {
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        let logger = self.logger
        Task {
            let response: APIResponse
            do {
                if let span = computation.exchange.span {
                    response = try await RequestTracing.run(in: span) { try await computation.compute() }
                } else {
                    response = try await computation.compute()
                }
            } catch {
                response = ResponseFinisher.response(
                    for: error, requestID: computation.exchange.requestID, logger: logger)
            }
            eventLoop.execute {
                bound.value.handler.finish(computation, response: response, context: bound.value.context)
            }
        }
    }

    /// Writes a computed response, then lets the requests held meanwhile through in their order.
    private func finish(_ computation: Computation, response: APIResponse, context: ChannelHandlerContext) {
        guard case (let held, let readDeferred)? = machine.computed(), context.channel.isActive else { return }
        write(Answer(response: response, exchange: computation.exchange), context: context)
        for part in held {
            receive(unwrapInboundIn(part), data: part, context: context)
        }
        // Ends the batch as a socket read would: flushes what was written here and lets the framework take
        // what was passed on.
        channelReadComplete(context: context)
        if readDeferred, machine.resumeRead() { context.read() }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func read(context: ChannelHandlerContext) {
        // Reading on while a computation runs keeps the socket's read interest as it is (dropping and
        // restoring it costs two system calls per request); only a client that pipelines more than a few
        // requests behind it is made to wait.
        if machine.readRequested() { context.read() }
    }

    /// The framework's responses to the requests passed on: the body of one that answers a `HEAD` or `CONNECT`
    /// is dropped here, since NIO's encoder, not paired with the decoder (see `GuardedHTTP1Channel`), does not
    /// know which request a response answers.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head:
            context.write(data, promise: promise)
        case .body:
            if bodilessResponses.first == true {
                promise?.succeed(())
            } else {
                context.write(data, promise: promise)
            }
        case .end:
            _ = bodilessResponses.popFirst()
            machine.responseEndWritten()
            context.write(data, promise: promise)
            requestGuard.responseEnded(context: context)
        }
    }

    /// A plain GET without a body that keeps the connection open: no `Connection` header other than
    /// `keep-alive` (which many HTTP/1.1 clients still send), so closing and upgrades stay the framework's.
    static func mayAnswer(_ head: HTTPRequest) -> Bool {
        guard head.method == .get, head.headerFields.value(of: .transferEncoding) == nil else { return false }
        let length = head.headerFields.value(of: .contentLength)
        guard length == nil || length == "0" else { return false }
        return head.headerFields[values: .connection].allSatisfy { value in
            value.split(separator: ",").allSatisfy {
                $0.trimmingCharacters(in: .whitespaces).lowercased() == "keep-alive"
            }
        }
    }

    private func write(_ answer: Answer, context: ChannelHandlerContext) {
        let response = answer.response
        var headers = response.headers
        // Copies the stored fields once, with room for the ones added here, instead of growing the copy.
        headers.reserveCapacity(headers.count + 6)
        let body = response.bytes
        // No encoder frames this answer: the finisher writes its framing too.
        finisher.finishWritten(
            &headers, status: response.status, bodyBytes: body?.readableBytes, exchange: answer.exchange,
            logger: logger)
        let outlet = answerOutlet ?? context
        outlet.write(
            NIOAny(
                IOData.byteBuffer(
                    HTTP1ResponseHead.bytes(
                        status: response.status, fields: headers, allocator: context.channel.allocator))),
            promise: nil)
        if let body {
            outlet.write(NIOAny(IOData.byteBuffer(body)), promise: nil)
        }
        needsFlush = true
        requestGuard.responseEnded(context: context)
        finisher.record(answer.exchange, method: .get, status: response.status)
    }
}
