import Dispatch
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import Tracing
import TripHistoryAPI
import TripHistoryDomain

/// The one place a response is finished, whichever path computed it: the router (through
/// `ResponseFinishingMiddleware`), the early-read handler and the connection's `RequestGuard` all call it, and
/// none of them writes these fields itself. It charges a request to the rate limits (`rateLimitDecision`), maps
/// any error to the problem the client gets (`response(for:requestID:logger:)`), and on every response adds the
/// rate-limit fields, the request id, `X-Content-Type-Options: nosniff` and the CORS fields, ends the request
/// span with its `traceresponse`, and counts the response in `RequestMetrics`. A response written past the
/// framework (an early answer, a refusal) also gets its `Content-Length` and `Date` here
/// (`finishWritten`); the router's responses get both from the framework, which frames every response it
/// writes and dates it after the router has answered.
struct ResponseFinisher: Sendable {
    static let requestIDField = HTTPField.Name("X-Request-ID")!

    /// What finishing a response needs to know of the request it answers, gathered when the request arrived.
    struct Exchange: Sendable {
        /// The route pattern the request matched; nil when none did (counted as `NotFound`).
        var route: String?
        /// The id the response carries: the client's when usable, else a new one.
        let requestID: String
        /// The request's `Origin` when CORS grants it access.
        var origin: String?
        /// When the request arrived (`DispatchTime` nanoseconds).
        var started: UInt64
        /// The fields of the request's rate-limit decision; nil when the request was not charged.
        var rateLimit: RateLimitFields?
        /// The request's span when tracing is on.
        var span: (any Span)?

        init(
            route: String? = nil, requestID: String, origin: String? = nil, started: UInt64 = 0,
            rateLimit: RateLimitFields? = nil, span: (any Span)? = nil
        ) {
            self.route = route
            self.requestID = requestID
            self.origin = origin
            self.started = started
            self.rateLimit = rateLimit
            self.span = span
        }
    }

    /// Where responses are counted; nil for a listener that is not measured (the metrics scrape's own).
    let metrics: RequestMetrics?
    /// The origins granted cross-origin access; nil adds no CORS fields.
    let cors: CORSPolicy?
    /// The request spans; nil when tracing is off.
    let tracing: RequestTracing?
    /// Where a request's rate limit is decided; nil charges nothing and adds no rate-limit fields.
    let rateLimits: RateLimitGate?
    /// The `Date` of responses written past the framework, formatted once a second for each owner of a copy.
    private var date = HTTPDate()

    init(
        metrics: RequestMetrics? = nil, cors: CORSPolicy? = nil, tracing: RequestTracing? = nil,
        rateLimits: RateLimitGate? = nil
    ) {
        self.metrics = metrics
        self.cors = cors
        self.tracing = tracing
        self.rateLimits = rateLimits
    }

    /// The exchange of a request with `headers` that arrived at `started`: its request id and the origin CORS
    /// grants, with `route` and `span` when they are known.
    func exchange(for headers: HTTPFields, route: String?, started: UInt64, span: (any Span)?) -> Exchange {
        Exchange(
            route: route, requestID: Self.requestID(for: headers), origin: cors?.allowedOrigin(of: headers),
            started: started, span: span)
    }

    /// The rate-limit decision for a read answered before the router, charged to its `caller`, which the
    /// read's token proved; nil when rate limits are off. Never waits, so an event-loop handler may ask.
    func rateLimitDecision(for caller: Caller) -> RateLimitDecision? {
        rateLimits?.decision(for: caller)
    }

    /// The rate-limit decision for a request with `head` to `path` that reached the router, from the client at
    /// `address`; nil when rate limits are off or the request is never charged: the probes and the scrape
    /// (`RateLimitGate.exempts(_:)`), and CORS preflights, which carry no token and cost nothing to answer.
    func rateLimitDecision(for head: HTTPRequest, path: String, address: SocketAddress?) async -> RateLimitDecision? {
        guard let rateLimits, !RateLimitGate.exempts(path), cors?.isPreflight(head) != true else { return nil }
        return await rateLimits.decision(authorization: head.headerFields.value(of: .authorization), address: address)
    }

    /// Finishes the `headers` of a response with `status` whose framing and `Date` the framework writes (the
    /// router's): adds the rate-limit fields of `exchange`, the request id, `nosniff` and the CORS fields, and
    /// ends the span (adding `traceresponse`, logging a 5xx with its trace id to `logger`).
    func finish(_ headers: inout HTTPFields, status: HTTPResponse.Status, exchange: Exchange, logger: Logger) {
        exchange.rateLimit?.add(to: &headers)
        headers[Self.requestIDField] = exchange.requestID
        // No browser guesses another type than the one declared.
        headers[.xContentTypeOptions] = "nosniff"
        cors?.stamp(&headers, allowedOrigin: exchange.origin)
        if let span = exchange.span, let tracing {
            tracing.finish(
                span, route: exchange.route, status: status, headers: &headers, requestID: exchange.requestID,
                logger: logger)
        }
    }

    /// Finishes the `headers` of a response with `status` written past the framework (an early answer, a
    /// connection's refusal): `Content-Length` for a body of `bodyBytes` (nil for none; a status that may carry
    /// a body then says it has none, NIO's rule: not 1xx, 204, 304), `Date`, then all `finish` adds.
    mutating func finishWritten(
        _ headers: inout HTTPFields, status: HTTPResponse.Status, bodyBytes: Int?, exchange: Exchange, logger: Logger
    ) {
        if let bodyBytes {
            headers[.contentLength] = String(bodyBytes)
        } else if HTTPResponseStatus(statusCode: Int(status.code)).mayHaveResponseBody {
            headers[.contentLength] = "0"
        }
        headers[.date] = date.value(secondsSince1970: Int64(Date().timeIntervalSince1970))
        finish(&headers, status: status, exchange: exchange, logger: logger)
    }

    /// Counts a response with `status` to `method` for `exchange`, on its route (`NotFound` when none matched),
    /// timed from its arrival.
    func record(_ exchange: Exchange, method: HTTPRequest.Method, status: HTTPResponse.Status) {
        metrics?.record(
            route: exchange.route ?? "NotFound", method: method, status: status,
            nanoseconds: DispatchTime.now().uptimeNanoseconds - exchange.started)
    }

    /// The id a response to a request with these headers carries: the client's when usable, else a new one.
    static func requestID(for headers: HTTPFields) -> String {
        usableRequestID(headers.value(of: requestIDField)) ?? RequestID().description
    }

    /// Accepts a client's id only when it is short and plain, so it is safe to echo and to log.
    static func usableRequestID(_ value: String?) -> String? {
        guard let value, (1...128).contains(value.utf8.count),
            value.utf8.allSatisfy({ byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            })
        else { return nil }
        return value
    }

    /// The response any error of the request `requestID` becomes: its problem (`problem(for:logger:)`), with
    /// the request id in its body.
    static func response(for error: any Error, requestID: String, logger: Logger) -> APIResponse {
        problem(for: error, logger: logger).response(requestID: requestID)
    }

    /// Errors the framework throws itself (an unknown path, a malformed request) become the matching
    /// problem; every other error is mapped by the API module. Unknown errors are logged there with the
    /// request id and answered with a bare 500, so nothing internal reaches the client.
    static func problem(for error: any Error, logger: Logger) -> Problem {
        switch error {
        case let error as HTTPError where error.status == .notFound:
            return .notFound
        case let error as HTTPError where (400..<500).contains(error.status.code):
            return Problem(
                status: error.status, code: .invalidParameter, title: error.status.reasonPhrase,
                detail: "The request could not be processed as sent."
            )
        default:
            return Problem(mapping: error, logger: logger)
        }
    }
}

/// The router's outermost middleware, its side of `ResponseFinisher`: assigns the request id, starts the
/// request span (whose context the layers inside run in), charges the request to the rate limits and answers
/// `429` when they refuse it, turns every error from inside into its problem, finishes the response and counts
/// it once its body has been written, so a streamed export counts its whole time.
struct ResponseFinishingMiddleware: RouterMiddleware {
    typealias Context = TripHistoryRequestContext

    let finisher: ResponseFinisher

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = DispatchTime.now().uptimeNanoseconds
        var context = context
        let span = finisher.tracing?.start(request.head)
        var exchange = finisher.exchange(for: request.headers, route: nil, started: started, span: span)
        context.requestID = exchange.requestID
        context.logger[metadataKey: "request_id"] = .string(exchange.requestID)
        var response: Response
        if let span {
            (response, exchange.rateLimit) = await RequestTracing.run(in: span) { [context] in
                await respond(to: request, context: context, next: next)
            }
        } else {
            (response, exchange.rateLimit) = await respond(to: request, context: context, next: next)
        }
        exchange.route = context.endpointPath
        finisher.finish(&response.headers, status: response.status, exchange: exchange, logger: context.logger)
        guard finisher.metrics != nil else { return response }
        let (finisher, status, method) = (self.finisher, response.status, request.method)
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { [exchange] writer in
            defer { finisher.record(exchange, method: method, status: status) }
            try await body.write(writer)
        }
        return response
    }

    /// The response of the layers inside, or the `429` of a request the rate limits refuse, or the problem of
    /// an error; with the fields of the request's rate-limit decision, for errors and refusals too.
    private func respond(
        to request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async -> (Response, RateLimitFields?) {
        let decision = await finisher.rateLimitDecision(
            for: request.head, path: request.uri.path, address: context.clientAddress)
        if let decision, !decision.admitted {
            return (Response(decision.problem.response(requestID: context.requestID)), decision.fields)
        }
        do {
            return (try await next(request, context), decision?.fields)
        } catch {
            let problem = ResponseFinisher.response(for: error, requestID: context.requestID, logger: context.logger)
            return (Response(problem), decision?.fields)
        }
    }
}
