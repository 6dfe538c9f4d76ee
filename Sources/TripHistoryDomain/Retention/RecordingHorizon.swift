public import Foundation

/// How far from now a recorded trip may have been requested: a year of trips is a partition of its own, so a
/// caller naming any year up to 9999 would otherwise create thousands of partitions, and every plan that
/// cannot prune would lock them all. Whole years of 365.25 days, before or after now.
public struct RecordingHorizon: Hashable, Sendable {
    /// The accepted numbers of years.
    public static let acceptedYears = 1...100
    /// The default: backfills of a decade of history, and clocks that are off, still fit.
    public static let standard = RecordingHorizon(years: 10)

    /// Years before and after now.
    public let years: Int

    public init(years: Int) {
        precondition(Self.acceptedYears.contains(years), "a horizon of \(years) years")
        self.years = years
    }

    /// Refuses a trip requested more than `years` before or after `now`.
    public func check(requestedAt: Date, now: Date) throws(ValidationError) {
        let reach = TimeInterval(years) * 365.25 * 86_400
        guard abs(requestedAt.timeIntervalSince(now)) <= reach else {
            throw ValidationError(field: "requested_at", reason: "must be within \(years) years of now")
        }
    }
}
