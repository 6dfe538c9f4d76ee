import HTTPTypes

extension Problem {
    /// A connection over the server's cap, answered before any request is read.
    public static let tooManyConnections = Problem(
        status: .serviceUnavailable, code: .unavailable, title: "Service unavailable",
        detail: "The server has as many connections open as it accepts; retry after the indicated delay.",
        retryAfterSeconds: 1
    )

    /// A request head that did not arrive completely in time.
    public static let requestTimeout = Problem(
        status: .requestTimeout, code: .requestTimeout, title: "Request timeout",
        detail: "The request head did not arrive in time; the connection is closed."
    )

    /// A request target longer than `limit` bytes.
    public static func uriTooLong(limit: Int) -> Problem {
        Problem(
            status: .uriTooLong, code: .uriTooLong, title: "URI too long",
            detail: "The request target (path and query) must not exceed \(limit) bytes."
        )
    }

    /// A header section over the limits.
    public static func headersTooLarge(maximumBytes: Int, maximumFields: Int) -> Problem {
        Problem(
            status: .requestHeaderFieldsTooLarge, code: .headersTooLarge, title: "Request header fields too large",
            detail: "The request headers must not exceed \(maximumBytes) bytes or \(maximumFields) fields."
        )
    }

    /// A request that is not valid HTTP/1.1.
    public static let malformedRequest = Problem(
        status: .badRequest, code: .malformedRequest, title: "Malformed request",
        detail: "The request is not valid HTTP/1.1; the connection is closed."
    )
}
