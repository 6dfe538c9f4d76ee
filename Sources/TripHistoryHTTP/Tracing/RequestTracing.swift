public import HTTPTypes
public import Logging
public import Tracing
import TripHistoryAPI

/// The request spans of the server, whichever path answers: the router (`ResponseFinishingMiddleware`) and the
/// early-read handler both start a request's span with `start(_:)`, and `ResponseFinisher` ends it with
/// `finish(_:route:status:headers:requestID:logger:)`, so spans, attributes, the `traceresponse` field and the
/// 5xx log line cannot drift between them. Only built when tracing is on; when it is off the server holds nil and does nothing.
///
/// An incoming W3C `traceparent` (and `tracestate`) is continued: the request span is its child, in its trace.
public struct RequestTracing: Sendable {
    /// The response field naming the request's trace and span, in `traceparent`'s format (W3C Trace Context
    /// Level 2's `traceresponse`), so a client can find the trace of any response.
    public static let traceResponseField = HTTPField.Name("traceresponse")!

    public let tracer: any Tracer
    /// Decides before the tracer which requests are left out, when a ratio sampler is configured.
    public let headSampler: HeadSampler?

    public init(tracer: any Tracer, headSampler: HeadSampler? = nil) {
        self.tracer = tracer
        self.headSampler = headSampler
    }

    /// Starts the server span of a request with `head`, continuing the trace of its `traceparent`; dated
    /// `instant` when given (the request's arrival), else now. A request the head sampler leaves out gets a
    /// span that records nothing and never reaches the tracer.
    public func start(_ head: HTTPRequest, at instant: DefaultTracerClock.Instant = DefaultTracerClock.now) -> any Span
    {
        if let headSampler,
            case .leaveOut(let traceParent) = headSampler.decide(
                traceParent: head.headerFields.value(of: HTTPFieldsExtractor.traceParent))
        {
            return LeftOutSpan(traceParent: traceParent)
        }
        var parent = ServiceContext.topLevel
        tracer.extract(head.headerFields, into: &parent, using: HTTPFieldsExtractor())
        let span = tracer.startSpan(head.method.rawValue, context: parent, ofKind: .server, at: instant)
        if span.isRecording { span.attributes["http.request.method"] = head.method.rawValue }
        return span
    }

    /// Runs the work of `span`'s request. When the span records, in the span's own context, which lets the
    /// API note the caller's role and the cache outcome on it (`ServiceContext.requestSpan`) and the layers
    /// below start child spans. When it does not (a request the sampler left out), as it is: its child spans
    /// would be dropped anyway, so it starts none and pays for none, and its log lines carry its request id
    /// but no trace id.
    public static func run<T>(in span: any Span, _ body: () async throws -> T) async rethrows -> T {
        guard span.isRecording else { return try await body() }
        var context = span.context
        context.requestSpan = span
        return try await ServiceContext.withValue(context, operation: body)
    }

    /// Ends `span` for a response with `status` to `route` (a route pattern; nil when no route matched), adds
    /// `traceresponse` to `headers`, and logs a 5xx with its trace id to `logger`, sampled or not, so the
    /// failure can be found in the traces when it was sampled and in the logs when it was not.
    public func finish(
        _ span: any Span, route: String?, status: HTTPResponse.Status, headers: inout HTTPFields, requestID: String,
        logger: Logger
    ) {
        if span.isRecording {
            if let route {
                // Started as the method alone; OpenTelemetry names a server span `{method} {route}`.
                span.operationName = "\(span.operationName) \(route)"
                span.attributes["http.route"] = route
            }
            span.attributes["http.response.status_code"] = status.code
            span.attributes["trip_history.request_id"] = requestID
            if status.code >= 500 { span.setStatus(SpanStatus(code: .error)) }
        }
        // Only a span that does not record can be one the head sampler left out.
        let leftOut = span.isRecording ? nil : (span as? LeftOutSpan)?.traceParent
        var traceParent = leftOut
        if leftOut == nil { tracer.inject(span.context, into: &traceParent, using: TraceParentInjector()) }
        if let traceParent { headers[Self.traceResponseField] = traceParent }
        if status.code >= 500 {
            var metadata: Logger.Metadata = [
                "request_id": .string(requestID), "http.response.status_code": .stringConvertible(status.code),
            ]
            if let route { metadata["http.route"] = .string(route) }
            if let sent = traceParent.flatMap(W3CTraceParent.init) {
                metadata["trace_id"] = .string(sent.traceID)
                // A span left out has no context for the metadata provider to read its id from.
                if leftOut != nil { metadata["span_id"] = .string(sent.parentID) }
            }
            // In the span's context, so a metadata provider (JSON logs) adds the span id too.
            ServiceContext.withValue(span.context) { logger.error("request failed", metadata: metadata) }
        }
        span.end()
    }
}

/// Reads propagation fields from a request's header fields; W3C's two are named once, not per request.
struct HTTPFieldsExtractor: Extractor {
    static let traceParent = HTTPField.Name("traceparent")!
    private static let traceState = HTTPField.Name("tracestate")!

    func extract(key: String, from carrier: HTTPFields) -> String? {
        switch key {
        case "traceparent": return carrier[Self.traceParent]
        case "tracestate": return carrier[Self.traceState]
        default: return HTTPField.Name(key).flatMap { carrier[$0] }
        }
    }
}

/// Keeps the `traceparent` field of what a tracer propagates, the one `traceresponse` repeats.
struct TraceParentInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout String?) {
        if key == "traceparent" { carrier = value }
    }
}
