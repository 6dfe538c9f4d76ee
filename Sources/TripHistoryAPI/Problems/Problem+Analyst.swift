import HTTPTypes

extension Problem {
    /// More requests of a bounded kind (e.g. exports) are running than the service allows at once.
    static func tooManyRequests(_ detail: String, retryAfterSeconds: Int) -> Problem {
        Problem(
            status: .tooManyRequests, code: .tooManyRequests, title: "Too many requests", detail: detail,
            retryAfterSeconds: retryAfterSeconds
        )
    }

    /// An analyst query ran past its statement timeout; the same query will time out again.
    static let queryTimeout = Problem(
        status: .serviceUnavailable, code: .queryTimeout, title: "Query too expensive",
        detail: "The query ran longer than the analyst time limit; narrow from/to or add city, product or rider_id."
    )
}
