/// The machine-readable kinds of failure this API reports, the `code` member of every problem body.
public enum ProblemCode: String, Sendable, CaseIterable {
    case invalidParameter = "invalid_parameter"
    case invalidCursor = "invalid_cursor"
    case cursorMismatch = "cursor_mismatch"
    case unauthorized
    case forbidden
    case notFound = "not_found"
    case methodNotAllowed = "method_not_allowed"
    case idempotencyKeyReused = "idempotency_key_reused"
    case conflict
    case payloadTooLarge = "payload_too_large"
    case unsupportedMediaType = "unsupported_media_type"
    case unavailable
    /// Deprecated: sent until 1.9.0 for a full export or stats limit, which now answers `rateLimited`; kept so
    /// the code stays in the contract for clients that still match it.
    case tooManyRequests = "too_many_requests"
    case rateLimited = "rate_limited"
    case notAcceptable = "not_acceptable"
    case queryTimeout = "query_timeout"
    case `internal`
    case requestTimeout = "request_timeout"
    case uriTooLong = "uri_too_long"
    case headersTooLarge = "headers_too_large"
    case malformedRequest = "malformed_request"
    case preconditionFailed = "precondition_failed"
    case syncTokenExpired = "sync_token_expired"
    case riderErased = "rider_erased"

    /// The `type` URI of the problem, stable so clients may switch on it.
    var typeURI: String { "urn:trip-history:problem:\(rawValue)" }

    /// Where the type is explained for people: this code's entry on the service's reference page.
    public var documentationPath: String { "/docs#problem-\(rawValue)" }

    /// The `Link` field value every problem response carries, naming `documentationPath` as what describes it.
    var describedByLink: String { "<\(documentationPath)>; rel=\"describedby\"" }
}
