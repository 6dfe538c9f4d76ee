public import HTTPTypes
import TripHistoryAPI

/// Cross-origin access for browser apps served from other origins (CORS), granted to configured origins only.
///
/// An origin is compared exactly (scheme, host and port, as the browser sends it in `Origin`); there is no
/// wildcard, and no credentials mode is offered since the API takes bearer tokens, not cookies. A preflight
/// (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) from a configured origin is answered `204`
/// with the methods and request headers the API reads; every other response to a configured origin names it
/// in `Access-Control-Allow-Origin` and exposes the response headers the API sends. Requests from other
/// origins, and every request when no origin is configured, get no CORS fields, so the browser keeps the
/// response from the page. While any origin is configured, every response also varies by `Origin`, so no
/// cache hands one origin's answer to another.
public struct CORSPolicy: Sendable, Equatable {
    /// The origins allowed, exactly as browsers send them (`https://app.example.com`).
    public let origins: Set<String>

    /// A policy for `origins`; nil when there is none, which turns CORS off.
    public init?(origins: some Sequence<String>) {
        let origins = Set(origins)
        guard !origins.isEmpty else { return nil }
        self.origins = origins
    }

    /// The methods the API serves (HEAD answers like GET; DELETE erases a rider).
    static let allowedMethods = "GET, HEAD, POST, DELETE"
    /// The request headers the API reads beyond the CORS-safelisted ones (`If-Match` guards adjustments;
    /// `traceparent` and `tracestate` join a page's trace).
    static let allowedHeaders =
        "Authorization, Content-Type, Idempotency-Key, If-None-Match, If-Match, Accept-Language, X-Request-ID, "
        + "traceparent, tracestate"
    /// The response headers the API sends beyond the CORS-safelisted ones, readable by the page.
    static let exposedHeaders =
        "ETag, Link, Location, Retry-After, RateLimit, RateLimit-Policy, X-Request-ID, Idempotent-Replayed, "
        + "Server-Timing, WWW-Authenticate, Allow, Content-Disposition"
    /// How long a browser may reuse a preflight's answer, in seconds.
    static let maximumAge = "600"

    static let allowOrigin = HTTPField.Name("Access-Control-Allow-Origin")!
    static let allowMethods = HTTPField.Name("Access-Control-Allow-Methods")!
    static let allowHeaders = HTTPField.Name("Access-Control-Allow-Headers")!
    static let exposeHeaders = HTTPField.Name("Access-Control-Expose-Headers")!
    static let maxAge = HTTPField.Name("Access-Control-Max-Age")!
    static let requestMethod = HTTPField.Name("Access-Control-Request-Method")!
    static let origin = HTTPField.Name("Origin")!

    /// The configured origin a request comes from, or nil when it carries none or another one.
    public func allowedOrigin(of request: HTTPFields) -> String? {
        guard let origin = request[Self.origin], origins.contains(origin) else { return nil }
        return origin
    }

    /// The fields of a `204` answering a preflight from a configured origin; nil for any other request,
    /// which then goes on like any other (an `OPTIONS` gets `405`).
    public func preflightFields(for request: HTTPRequest) -> HTTPFields? {
        guard isPreflight(request), let origin = allowedOrigin(of: request.headerFields) else { return nil }
        var fields = HTTPFields()
        fields[Self.allowOrigin] = origin
        fields[Self.allowMethods] = Self.allowedMethods
        fields[Self.allowHeaders] = Self.allowedHeaders
        fields[Self.maxAge] = Self.maximumAge
        fields[.vary] = "Origin"
        fields[.cacheControl] = "no-store"
        return fields
    }

    /// Whether `request` is a preflight from a configured origin: `OPTIONS` with `Origin` and
    /// `Access-Control-Request-Method`.
    public func isPreflight(_ request: HTTPRequest) -> Bool {
        request.method == .options && request.headerFields.value(of: Self.requestMethod) != nil
            && allowedOrigin(of: request.headerFields) != nil
    }

    /// Adds the CORS fields of a response to a request whose `Origin` is `origin` (the value
    /// `allowedOrigin(of:)` found): the origin and the exposed headers when it is configured, and `Origin`
    /// in `Vary` whatever it is.
    public func stamp(_ headers: inout HTTPFields, allowedOrigin origin: String?) {
        if let vary = headers.value(of: .vary) {
            if !vary.split(separator: ",").contains(where: { $0.split(separator: " ").first == "Origin" }) {
                headers[.vary] = vary + ", Origin"
            }
        } else {
            headers[.vary] = "Origin"
        }
        guard let origin else { return }
        headers[Self.allowOrigin] = origin
        headers[Self.exposeHeaders] = Self.exposedHeaders
    }
}
