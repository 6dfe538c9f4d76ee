import Dispatch
import Foundation
import HTTPTypes
import Metrics
import NIOCore
import NIOHTTPTypes

/// Answers the rider reads (warm cache hits at once, everything else once computed) and the liveness probe
/// from the channel pipeline, and passes every other request on to the router unchanged.
///
/// Why: a cached page costs almost nothing to look up, yet the framework's way to it (async request stream,
/// task hops, router, middleware chain, async response writer) cost about as much again as the socket work
/// itself; profiles of the cached path showed our own code at a few percent. This handler sits in the
/// channel pipeline after HTTP decoding and before the framework. It asks `TripRoutes.shortcutReply(to:)`,
/// which checks the request and builds the key with the very code the routes use and reads the cache
/// without waiting; a nil reply (token not verified before, anything to report as a problem, any other
/// route) sends the request on its normal way, where it is answered exactly as without this handler.
/// `/healthz` is answered here too (`OperationalRoutes.livenessResponse(to:)`), so a liveness probe
/// measures the event loop rather than the queue of requests waiting for the database.
///
/// A rider read that is not a warm hit but passed every check the route makes before the database (an
/// uncached page, a miss) is computed here as well (the reply's `compute`): the same code the route runs,
/// started in a task straight from the event loop, its answer written back on the event loop.
/// That skips the framework's request stream, router, middleware and response writer, which profiles of the
/// uncached page put at about a fifth of the service's CPU. When the computation throws (the database is
/// unavailable, the trip is not the caller's), the request is passed on to the router as if it had just
/// arrived, and answered there with its problem. While a computation runs, the connection's later requests
/// wait (they are held, and reading stops once a few are), so responses keep their order.
///
/// Order on the connection is kept: while a request passed on has not been fully answered, later requests
/// are passed on too, so pipelined responses never overtake each other. Requests with a body or a
/// `Connection` header other than `keep-alive` are always passed on. Every response written here gets what
/// the framework and the problem middleware add to theirs (`Content-Length`, `X-Request-ID`, `Date`) and is
/// counted in the same request metrics.
public final class EventLoopShortcut: ChannelDuplexHandler, RemovableChannelHandler {
    public typealias InboundIn = HTTPRequestPart
    public typealias InboundOut = HTTPRequestPart
    public typealias OutboundIn = HTTPResponsePart
    public typealias OutboundOut = HTTPResponsePart

    /// What every connection's handler shares: the answering function and the metric handles.
    public struct Answers: Sendable {
        let reply: @Sendable (HTTPRequest) -> ShortcutReply?
        let metrics: [MetricsKey: RequestMetrics]

        /// Answers the liveness probe and `routes`' rider reads (warm hits of its cache at once, the others
        /// computed), counted in `metricsFactory` (the global metrics system unless a test passes its own).
        public init<Repository>(
            routes: TripRoutes<Repository>, metricsFactory: any MetricsFactory = MetricsSystem.factory
        ) {
            self.init(metricsFactory: metricsFactory) { head in
                OperationalRoutes.livenessResponse(to: head).map { .answer($0) } ?? routes.shortcutReply(to: head)
            }
        }

        init(metricsFactory: any MetricsFactory, reply: @escaping @Sendable (HTTPRequest) -> ShortcutReply?) {
            self.reply = reply
            var metrics: [MetricsKey: RequestMetrics] = [:]
            let answered: [(String, HTTPResponse.Status)] = [
                (RiderReadPath.listRoute, .ok), (RiderReadPath.listRoute, .notModified),
                (RiderReadPath.detailRoute, .ok), (RiderReadPath.detailRoute, .notModified),
                (OperationalRoutes.livenessPath, .ok),
            ]
            for (route, status) in answered {
                metrics[MetricsKey(route: route, status: status.code)] = RequestMetrics(
                    route: route, status: status, factory: metricsFactory
                )
            }
            self.metrics = metrics
        }
    }

    struct MetricsKey: Hashable {
        let route: String
        let status: Int
    }

    /// The counter and timer Hummingbird's `MetricsMiddleware` keeps for a route and status, under the same
    /// labels and dimensions, so `/metrics` counts shortcut answers with the others.
    struct RequestMetrics: Sendable {
        let requests: Counter
        let duration: Timer

        init(route: String, status: HTTPResponse.Status, factory: any MetricsFactory) {
            let dimensions = [
                ("http.route", route), ("http.request.method", "GET"),
                ("http.response.status_code", status.code.description),
            ]
            requests = Counter(label: "hb.requests", dimensions: dimensions, factory: factory)
            duration = Timer(
                label: "http.server.request.duration", dimensions: dimensions, preferredDisplayUnit: .seconds,
                factory: factory
            )
        }
    }

    private struct Pending {
        let answer: ShortcutAnswer
        let requestID: String
        let started: UInt64
    }

    /// A request to be answered by a computation, kept whole so it can be passed on if the computation fails.
    private struct Computation {
        let head: HTTPRequest
        let compute: @Sendable () async throws -> ShortcutAnswer
        let requestID: String
        let started: UInt64
    }

    private let answers: Answers
    /// Whether the parts of the current request are being passed on.
    private var passingOn = false
    /// Requests passed on whose response has not been completely written yet.
    private var unanswered = 0
    /// The answer to the current request, written when its end arrives.
    private var pending: Pending?
    /// The computation for the current request, started when its end arrives.
    private var computation: Computation?
    /// Whether a computation is running; until it is answered, inbound parts are held (and reads deferred
    /// once `heldPartsBeforeBackPressure` are).
    private var computing = false
    private var held: [NIOAny] = []
    /// Parts of pipelined requests held before the handler stops reading from the socket.
    static let heldPartsBeforeBackPressure = 16
    private var readDeferred = false
    private var needsFlush = false
    private var date = HTTPDate()

    public init(answers: Answers) {
        self.answers = answers
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if computing {
            held.append(data)
            return
        }
        switch unwrapInboundIn(data) {
        case .head(let head):
            guard unanswered == 0, Self.mayAnswer(head) else {
                passOn(data, context: context)
                return
            }
            let started = DispatchTime.now().uptimeNanoseconds
            switch answers.reply(head) {
            case .answer(let answer):
                pending = Pending(
                    answer: answer, requestID: ProblemMiddleware.requestID(for: head.headerFields), started: started
                )
            case .compute(let compute):
                computation = Computation(
                    head: head, compute: compute, requestID: ProblemMiddleware.requestID(for: head.headerFields),
                    started: started
                )
            case nil:
                passOn(data, context: context)
            }
        case .body:
            // Only requests without a body are answered here, so a body always belongs to one passed on.
            if passingOn { context.fireChannelRead(data) }
        case .end:
            if passingOn {
                passingOn = false
                context.fireChannelRead(data)
            } else if let pending {
                self.pending = nil
                write(pending, context: context)
            } else if let computation {
                self.computation = nil
                start(computation, context: context)
            }
        }
    }

    /// Passes a request's head on to the router; its other parts follow while `passingOn` is set.
    private func passOn(_ data: NIOAny, context: ChannelHandlerContext) {
        passingOn = true
        unanswered += 1
        context.fireChannelRead(data)
    }

    private func start(_ computation: Computation, context: ChannelHandlerContext) {
        computing = true
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        let compute = computation.compute
        Task {
            let result: Result<ShortcutAnswer, any Error>
            do {
                result = .success(try await compute())
            } catch {
                result = .failure(error)
            }
            eventLoop.execute {
                bound.value.handler.finish(computation, with: result, context: bound.value.context)
            }
        }
    }

    /// Writes a computed answer, or passes the request on when there is none, then lets the requests held
    /// meanwhile through in their order.
    private func finish(
        _ computation: Computation, with result: Result<ShortcutAnswer, any Error>, context: ChannelHandlerContext
    ) {
        computing = false
        guard context.channel.isActive else {
            held = []
            return
        }
        switch result {
        case .success(let answer):
            write(
                Pending(answer: answer, requestID: computation.requestID, started: computation.started),
                context: context
            )
        case .failure:
            // The router answers it afresh, with the problem the route reports for this failure.
            passOn(wrapInboundOut(.head(computation.head)), context: context)
            passingOn = false
            context.fireChannelRead(wrapInboundOut(.end(nil)))
        }
        let parts = held
        held = []
        for part in parts {
            channelRead(context: context, data: part)
        }
        // Ends the batch as a socket read would: flushes what was written here and lets the framework take
        // what was passed on.
        channelReadComplete(context: context)
        if readDeferred, !computing {
            readDeferred = false
            context.read()
        }
    }

    public func channelReadComplete(context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    public func read(context: ChannelHandlerContext) {
        // Reading on while a computation runs keeps the socket's read interest as it is (dropping and
        // restoring it costs two system calls per request); only a client that pipelines more than a few
        // requests behind it is made to wait.
        if computing, held.count >= Self.heldPartsBeforeBackPressure {
            readDeferred = true
        } else {
            context.read()
        }
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), unanswered > 0 {
            unanswered -= 1
        }
        context.write(data, promise: promise)
    }

    /// A plain GET without a body that keeps the connection open: no `Connection` header other than
    /// `keep-alive` (which many HTTP/1.1 clients still send), so closing and upgrades stay the framework's.
    private static func mayAnswer(_ head: HTTPRequest) -> Bool {
        guard head.method == .get, head.headerFields[.transferEncoding] == nil else { return false }
        let length = head.headerFields[.contentLength]
        guard length == nil || length == "0" else { return false }
        return head.headerFields[values: .connection].allSatisfy { value in
            value.split(separator: ",").allSatisfy {
                $0.trimmingCharacters(in: .whitespaces).lowercased() == "keep-alive"
            }
        }
    }

    private func write(_ pending: Pending, context: ChannelHandlerContext) {
        let rendered = pending.answer.response
        var headers = rendered.headers
        if let body = rendered.body { headers[.contentLength] = String(body.readableBytes) }
        headers[ProblemMiddleware.requestIDField] = pending.requestID
        headers[.date] = date.value(secondsSince1970: Int64(Date().timeIntervalSince1970))
        context.write(
            wrapOutboundOut(.head(HTTPResponse(status: rendered.status, headerFields: headers))), promise: nil)
        if let body = rendered.body {
            context.write(wrapOutboundOut(.body(body)), promise: nil)
        }
        context.write(wrapOutboundOut(.end(nil)), promise: nil)
        needsFlush = true
        if let metrics = answers.metrics[MetricsKey(route: pending.answer.route, status: rendered.status.code)] {
            metrics.requests.increment()
            metrics.duration.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - pending.started))
        }
    }
}
