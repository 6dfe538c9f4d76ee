import HTTPTypes

/// Header names of this API that HTTPTypes does not predefine.
enum TripHeaderNames {
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    /// Set to `true` on a response replayed for a repeated idempotency key.
    static let idempotentReplayed = HTTPField.Name("Idempotent-Replayed")!
}

extension TripHeaderNames {
    /// RFC 8288 web links: to the neighbouring pages, and from a problem to its code's documentation.
    static let link = HTTPField.Name("Link")!
    /// What an HTML page may load and run.
    static let contentSecurityPolicy = HTTPField.Name("Content-Security-Policy")!
}
