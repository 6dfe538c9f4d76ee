import TripHistoryDomain

extension BoundedPageLimit {
    /// The `limit` query parameter: `default` when absent, otherwise a decimal integer within `range`; anything
    /// else is `invalid_parameter` on `limit`, naming the range.
    static func parse(_ text: Substring?) throws(Problem) -> Self {
        guard let text else { return .default }
        guard let value = Int(text), let limit = Self(value) else {
            throw Problem.invalidParameter(
                "limit", "limit must be an integer from \(range.lowerBound) to \(range.upperBound)."
            )
        }
        return limit
    }
}
