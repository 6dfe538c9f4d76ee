import Foundation

/// The problem codes of this version of the API; `TripHistoryError.problemCode` also holds codes added later.
public typealias ProblemCode = Components.Schemas.ProblemCode

/// A failure of a call to the trip history service, in terms an app can act on.
///
/// Problems the service answers (`application/problem+json`) keep its `code`, `param`, `retryable` and
/// `request_id`; failures that never got an answer (no network, a dropped connection) are `transport` errors.
public struct TripHistoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: Sendable, Equatable {
        /// The service answered with a problem document or an error status.
        case problem
        /// No usable answer arrived: the connection failed, timed out or was cut.
        case transport
        /// An answer arrived but did not have the shape the API describes.
        case unexpectedResponse
    }

    /// What kind of failure this is.
    public var kind: Kind
    /// The HTTP status, when the service answered.
    public var status: Int?
    /// The problem's stable `code` (`not_found`, `unauthorized`, `unavailable`, ...), when there was one.
    public var code: String?
    /// The query parameter, header or body member at fault, as the service named it.
    public var param: String?
    /// The problem's own `retryable` flag.
    public var retryable: Bool
    /// The request's id (`request_id`, also the `X-Request-ID` header): quote it when reporting a failure.
    public var requestID: String?
    /// The service's explanation, meant for logs and developers rather than end users.
    public var detail: String?
    /// How long the service asked the client to wait before retrying (`Retry-After`), in seconds, if it said.
    public var retryAfter: TimeInterval?

    /// Creates an error; the client makes these, tests and previews may too.
    public init(
        kind: Kind, status: Int? = nil, code: String? = nil, param: String? = nil, retryable: Bool,
        requestID: String? = nil, detail: String? = nil, retryAfter: TimeInterval? = nil
    ) {
        self.kind = kind
        self.status = status
        self.code = code
        self.param = param
        self.retryable = retryable
        self.requestID = requestID
        self.detail = detail
        self.retryAfter = retryAfter
    }

    /// Whether repeating the same request later may succeed: the service said so (`retryable`, as for
    /// `unavailable` and `rate_limited`), or the request never got an answer.
    public var isRecoverable: Bool {
        switch kind {
        case .transport: true
        case .problem: retryable
        case .unexpectedResponse: false
        }
    }

    /// The problem's `code` for a switch: `.known` for the codes of this version of the API, `.unknown` for one
    /// a later version added (decide by `isRecoverable` and `status` then); nil without a problem document.
    public var problemCode: OpenEnumValue<ProblemCode>? {
        code.map(OpenEnumValue.init(rawValue:))
    }

    /// Whether the service refused the token (`401`): the app should get a new one or sign the user in again.
    public var isUnauthorized: Bool { status == 401 }

    /// Whether the trip or rider does not exist for this caller (`404`); another rider's id looks the same.
    public var isNotFound: Bool { status == 404 }

    /// Whether a changes-feed token is older than the feed keeps changes (`410 sync_token_expired`).
    public var isSyncTokenExpired: Bool { status == 410 }

    /// Whether the changes feed refused the token sent as `since`: too old (`410 sync_token_expired`), not
    /// issued by this service (`400 invalid_cursor`) or issued for another rider (`400 cursor_mismatch`).
    /// Either way the app reloads its list and takes a new token.
    public var isSyncTokenRefused: Bool {
        isSyncTokenExpired || (status == 400 && (code == "invalid_cursor" || code == "cursor_mismatch"))
    }

    /// The kind, status, code, param, request id and detail, for logs; never a token.
    public var description: String {
        var parts = ["TripHistoryError(\(kind)"]
        if let status { parts.append("status \(status)") }
        if let code { parts.append("code \(code)") }
        if let param { parts.append("param \(param)") }
        if let requestID { parts.append("request \(requestID)") }
        if let detail { parts.append(detail) }
        return parts.joined(separator: ", ") + ")"
    }
}
