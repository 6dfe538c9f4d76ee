public import HTTPTypes
import NIOCore

/// An RFC 9457 problem: the only shape an error response of this API takes. The detail is written by this
/// service, never copied from the request or from a lower layer, so no SQL, stack or raw input can leak.
public struct Problem: Error, Sendable, Equatable {
    public let status: HTTPResponse.Status
    public let code: ProblemCode
    public let title: String
    public let detail: String
    /// The query parameter, header or body field at fault, by the name the client used.
    public let param: String?
    public let retryAfterSeconds: Int?
    public var extraHeaders: HTTPFields

    public init(
        status: HTTPResponse.Status, code: ProblemCode, title: String, detail: String, param: String? = nil,
        retryAfterSeconds: Int? = nil, extraHeaders: HTTPFields = [:]
    ) {
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.param = param
        self.retryAfterSeconds = retryAfterSeconds
        self.extraHeaders = extraHeaders
    }

    /// Whether repeating the same request later may succeed.
    public var isRetryable: Bool {
        switch code {
        case .unavailable, .conflict, .tooManyRequests, .rateLimited, .internal, .requestTimeout: return true
        default: return false
        }
    }

    /// The response for this problem, carrying `requestID` in the body (the header is added by the server).
    /// Problems are never stored by any cache.
    public func response(requestID: String) -> APIResponse {
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.field("type", code.typeURI)
        writer.field("title", title)
        writer.field("status", status.code)
        writer.field("detail", detail)
        writer.field("code", code.rawValue)
        if let param { writer.field("param", param) }
        writer.field("retryable", isRetryable)
        writer.field("request_id", requestID)
        writer.endObject()
        var headers = extraHeaders
        headers[.contentType] = "application/problem+json"
        headers[.cacheControl] = "no-store"
        headers[TripHeaderNames.link] = code.describedByLink
        if let retryAfterSeconds { headers[.retryAfter] = String(retryAfterSeconds) }
        return APIResponse(status: status, headers: headers, body: .bytes(writer.byteBuffer))
    }
}

extension Problem {
    static func invalidParameter(_ param: String, _ detail: String) -> Problem {
        Problem(status: .badRequest, code: .invalidParameter, title: "Invalid parameter", detail: detail, param: param)
    }

    static func invalidField(_ field: String, _ detail: String) -> Problem {
        Problem(
            status: .unprocessableContent, code: .invalidParameter, title: "Invalid field", detail: detail,
            param: field
        )
    }

    static let invalidCursor = Problem(
        status: .badRequest, code: .invalidCursor, title: "Invalid cursor",
        detail: "The cursor is malformed or was not issued by this service; start again from the first page.",
        param: "cursor"
    )

    static let cursorMismatch = Problem(
        status: .badRequest, code: .cursorMismatch, title: "Cursor does not match the request",
        detail: "The cursor was issued for another rider or filter; send it with the same rider, from, to and status.",
        param: "cursor"
    )

    static func unauthorized(_ detail: String) -> Problem {
        Problem(
            status: .unauthorized, code: .unauthorized, title: "Unauthorized", detail: detail,
            extraHeaders: [.wwwAuthenticate: #"Bearer realm="trip-history""#]
        )
    }

    static let forbidden = Problem(
        status: .forbidden, code: .forbidden, title: "Forbidden",
        detail: "The token's role may not perform this request."
    )

    public static let notFound = Problem(
        status: .notFound, code: .notFound, title: "Not found", detail: "No resource exists at this address."
    )

    public static func methodNotAllowed(allowed: [HTTPRequest.Method]) -> Problem {
        let allow = allowed.map(\.rawValue).joined(separator: ", ")
        return Problem(
            status: .methodNotAllowed, code: .methodNotAllowed, title: "Method not allowed",
            detail: "This resource supports \(allow).", extraHeaders: [.allow: allow]
        )
    }

    /// None of the media types the `Accept` header allows can be produced.
    static func notAcceptable(supported: [String]) -> Problem {
        Problem(
            status: .notAcceptable, code: .notAcceptable, title: "Not acceptable",
            detail: "This resource can answer with \(supported.joined(separator: ", ")); allow one of them in Accept.",
            param: "Accept"
        )
    }

    static let idempotencyKeyReused = Problem(
        status: .unprocessableContent, code: .idempotencyKeyReused, title: "Idempotency key reused",
        detail: "This Idempotency-Key was already used with a different request body.", param: "Idempotency-Key"
    )

    static let conflict = Problem(
        status: .conflict, code: .conflict, title: "Request in progress",
        detail: "A request with this Idempotency-Key is still being processed; retry shortly.",
        param: "Idempotency-Key", retryAfterSeconds: 1
    )

    static let riderErased = Problem(
        status: .unprocessableContent, code: .riderErased, title: "Rider erased",
        detail: "The rider's data was erased after this trip was requested; it cannot be recorded.",
        param: "requested_at"
    )

    static let preconditionFailed = Problem(
        status: .preconditionFailed, code: .preconditionFailed, title: "Precondition failed",
        detail: "The trip changed since the version If-Match names; read it again and decide anew.",
        param: "If-Match"
    )

    /// The problem of a `since` token the codec refused; `retention` is the feed's, for an expired one.
    static func syncToken(_ error: SyncTokenCodec.DecodingError, retention: Double) -> Problem {
        switch error {
        case .invalid: invalidSyncToken
        case .mismatch: syncTokenMismatch
        case .expired: syncTokenExpired(retentionDays: Int(retention / 86_400))
        }
    }

    static let invalidSyncToken = Problem(
        status: .badRequest, code: .invalidCursor, title: "Invalid sync token",
        detail: "The since token is malformed or was not issued by this service; start again without since.",
        param: "since"
    )

    static let syncTokenMismatch = Problem(
        status: .badRequest, code: .cursorMismatch, title: "Sync token does not match the request",
        detail: "The since token was issued for another feed (another rider's, or a rider's for the analysts').",
        param: "since"
    )

    static func syncTokenExpired(retentionDays: Int) -> Problem {
        Problem(
            status: .gone, code: .syncTokenExpired, title: "Sync token expired",
            detail: "The since token is older than the feed keeps changes (\(retentionDays) days); reload the trips "
                + "from the first page and start again without since.",
            param: "since"
        )
    }

    /// A token within its age whose position the feed's purge has passed: the changes after it are not all kept.
    static let syncTokenPurged = Problem(
        status: .gone, code: .syncTokenExpired, title: "Sync token expired",
        detail: "Some changes after the since token are no longer kept; reload the trips from the first page and "
            + "start again without since.",
        param: "since"
    )

    /// An analysts' feed token read on another topology (one PostgreSQL or the sharded one, or before a partition
    /// moved to another server): its positions cannot be read here without skipping changes.
    static let syncTokenTopologyChanged = Problem(
        status: .gone, code: .syncTokenExpired, title: "Sync token expired",
        detail: "The trip store's topology changed since the since token was issued (a partition moved to another "
            + "server); reload the trips and start again without since.",
        param: "since"
    )

    static func payloadTooLarge(limit: Int) -> Problem {
        Problem(
            status: .contentTooLarge, code: .payloadTooLarge, title: "Payload too large",
            detail: "The request body must not exceed \(limit) bytes."
        )
    }

    static func unavailable(retryAfterSeconds: Int) -> Problem {
        Problem(
            status: .serviceUnavailable, code: .unavailable, title: "Service unavailable",
            detail: "The trip store is not answering right now; retry after the indicated delay. A write may or "
                + "may not have been stored; repeat it with the same Idempotency-Key to find out.",
            retryAfterSeconds: retryAfterSeconds
        )
    }

    static let `internal` = Problem(
        status: .internalServerError, code: .internal, title: "Internal error",
        detail: "The request failed unexpectedly; it has been logged with its request id."
    )
}
