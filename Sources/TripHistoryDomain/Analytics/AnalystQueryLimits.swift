import Foundation

/// Bounds on what one analyst query may ask of the store, set by the composition root.
public struct AnalystQueryLimits: Hashable, Sendable {
    /// The default widest window, a little over a year so year-on-year questions fit in one query.
    public static let defaultMaximumSpanDays = 400

    /// Widest `[from, to)` window in days.
    public let maximumSpanDays: Int

    /// Values below 1 are raised to 1.
    public init(maximumSpanDays: Int = Self.defaultMaximumSpanDays) {
        self.maximumSpanDays = max(maximumSpanDays, 1)
    }

    /// Fails with `ValidationError` on `to` when the window is longer than `maximumSpanDays` days.
    public func check(_ filter: AnalystTripFilter) throws(ValidationError) {
        let span = filter.to.timeIntervalSince(filter.from)
        guard span <= Double(maximumSpanDays) * 86_400 else {
            throw ValidationError(field: "to", reason: "must be at most \(maximumSpanDays) days after from")
        }
    }
}
