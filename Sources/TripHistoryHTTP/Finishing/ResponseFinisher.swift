import Dispatch
import HTTPTypes
import Hummingbird
import Logging
import Tracing
import TripHistoryAPI
import TripHistoryDomain

/// The one place a response is finished, whichever path computed it: the router (through
/// `ResponseFinishingMiddleware`) and the early-read handler both call `finish(_:status:route:requestID:origin:
/// rateLimit:span:logger:)` and `record(route:method:status:started:)`. It stamps what every response carries
/// (the rate-limit fields, the request id, `X-Content-Type-Options: nosniff`, the CORS fields), ends the request
/// span with its `traceresponse`, and counts the response in `RequestMetrics`; `problem(for:logger:)` maps any
/// error to the problem the client gets.
struct ResponseFinisher: Sendable {
    static let requestIDField = HTTPField.Name("X-Request-ID")!

    /// Where responses are counted; nil for a listener that is not measured (the metrics scrape's own).
    let metrics: RequestMetrics?
    /// The origins granted cross-origin access; nil adds no CORS fields.
    let cors: CORSPolicy?
    /// The request spans; nil when tracing is off.
    let tracing: RequestTracing?

    init(metrics: RequestMetrics? = nil, cors: CORSPolicy? = nil, tracing: RequestTracing? = nil) {
        self.metrics = metrics
        self.cors = cors
        self.tracing = tracing
    }

    /// Finishes the `headers` of a response with `status` to the request `requestID` (matched to `route`, nil
    /// when none was; sent from `origin` when CORS grants it access): adds `rateLimit`'s fields, stamps the
    /// fields of every response, and ends `span` (adding `traceresponse`, logging a 5xx with its trace id).
    func finish(
        _ headers: inout HTTPFields, status: HTTPResponse.Status, route: String?, requestID: String, origin: String?,
        rateLimit: RateLimitFields?, span: (any Span)?, logger: Logger
    ) {
        rateLimit?.add(to: &headers)
        Self.stamp(&headers, requestID: requestID, cors: cors, origin: origin)
        if let span, let tracing {
            tracing.finish(
                span, route: route, status: status, headers: &headers, requestID: requestID, logger: logger)
        }
    }

    /// Counts a response with `status` to `method` on `route` (`NotFound` when none matched), for a request
    /// that began at `started` (`DispatchTime` nanoseconds).
    func record(route: String?, method: HTTPRequest.Method, status: HTTPResponse.Status, started: UInt64) {
        metrics?.record(
            route: route ?? "NotFound", method: method, status: status,
            nanoseconds: DispatchTime.now().uptimeNanoseconds - started)
    }

    /// Adds what every response carries, whoever answered it: the request id,
    /// `X-Content-Type-Options: nosniff` so no browser guesses another type than the one declared, and with
    /// `cors` its fields for a request from `origin` (`CORSPolicy.allowedOrigin(of:)`). Connection refusals,
    /// written before any request is known, use it alone.
    static func stamp(
        _ headers: inout HTTPFields, requestID: String, cors: CORSPolicy? = nil, origin: String? = nil
    ) {
        headers[requestIDField] = requestID
        headers[.xContentTypeOptions] = "nosniff"
        cors?.stamp(&headers, allowedOrigin: origin)
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
/// request span (whose context the layers inside run in), turns every error from inside into its problem,
/// finishes the response and counts it once its body has been written, so a streamed export counts its whole
/// time.
struct ResponseFinishingMiddleware: RouterMiddleware {
    typealias Context = TripHistoryRequestContext

    let finisher: ResponseFinisher

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = DispatchTime.now().uptimeNanoseconds
        var context = context
        let requestID = ResponseFinisher.requestID(for: request.headers)
        context.requestID = requestID
        context.logger[metadataKey: "request_id"] = .string(requestID)
        let span = finisher.tracing?.start(request.head)
        var response: Response
        do {
            if let span {
                response = try await RequestTracing.run(in: span) { [context] in try await next(request, context) }
            } else {
                response = try await next(request, context)
            }
        } catch {
            response = Response(
                ResponseFinisher.problem(for: error, logger: context.logger).response(requestID: requestID))
        }
        let route = context.endpointPath
        finisher.finish(
            &response.headers, status: response.status, route: route, requestID: requestID,
            origin: finisher.cors?.allowedOrigin(of: request.headers), rateLimit: nil, span: span,
            logger: context.logger)
        guard finisher.metrics != nil else { return response }
        let (finisher, status, method) = (self.finisher, response.status, request.method)
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            defer { finisher.record(route: route, method: method, status: status, started: started) }
            try await body.write(writer)
        }
        return response
    }
}
