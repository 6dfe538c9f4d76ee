/// How a list page counts the trips its filter matches, when asked to (`count=exact|planned`, PostgREST's
/// `Prefer: count` semantics).
public enum TripCountMode: String, Hashable, Sendable, CaseIterable {
    /// Counted row by row, up to `TripCount.exactLimit`; beyond it the store answers with its estimate.
    case exact
    /// The query planner's estimate: costs about the same however many trips match.
    case planned
}

/// The number of trips a list's filter matches (whatever page is read), and how it was obtained.
public struct TripCount: Hashable, Sendable {
    public let value: Int64
    /// `.exact` only when every matching trip was counted.
    public let accuracy: TripCountMode

    public init(value: Int64, accuracy: TripCountMode) {
        self.value = max(value, 0)
        self.accuracy = accuracy
    }

    /// An exact count reads at most this many trips plus one. A filter matching more is answered with the
    /// planner's estimate, raised above this limit when lower (the trips counted prove at least that many).
    public static let exactLimit: Int64 = 10_000

    /// The answer to an exact count that read `counted` trips (at most `exactLimit + 1`); nil past the limit,
    /// where `beyondExactLimit(estimate:)` answers instead.
    public static func exact(counted: Int64) -> TripCount? {
        counted > exactLimit ? nil : TripCount(value: counted, accuracy: .exact)
    }

    /// The answer to an exact count past `exactLimit`: the planner's estimate, at least the limit plus one.
    public static func beyondExactLimit(estimate: Int64) -> TripCount {
        TripCount(value: max(estimate, exactLimit + 1), accuracy: .planned)
    }
}
