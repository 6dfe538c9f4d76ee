import HTTPTypes

extension Problem {
    /// More requests of a bounded kind (e.g. exports) are running than the service allows at once: the one 429
    /// code, `rate_limited`, as for a caller over its rate limit.
    static func tooManyRequests(_ detail: String, retryAfterSeconds: Int) -> Problem {
        Problem(
            status: .tooManyRequests, code: .rateLimited, title: "Too many requests", detail: detail,
            retryAfterSeconds: retryAfterSeconds
        )
    }

    /// An analyst query ran past its statement timeout; the same query will time out again, so the answer is a
    /// 4xx that is not retryable, which generic retry layers leave alone.
    static let queryTimeout = Problem(
        status: .unprocessableContent, code: .queryTimeout, title: "Query too expensive",
        detail: "The query ran longer than the analyst time limit; narrow from/to or add city, product or rider_id."
    )
}
