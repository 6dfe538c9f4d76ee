public import Foundation

/// How long trips are kept: whole calendar months (UTC), so that a month leaves in one piece. At any moment
/// the current month and the `months` months before it are kept; a month is removed on the first day of the
/// `months + 1`-th month after it, so a trip is kept at least `months` months and less than `months + 1`.
public struct TripRetention: Hashable, Sendable {
    /// The accepted numbers of months: a month at least, a century at most.
    public static let acceptedMonths = 1...1200

    /// Months kept before the current one.
    public let months: Int

    public init(months: Int) {
        precondition(Self.acceptedMonths.contains(months), "a retention of \(months) months")
        self.months = months
    }

    /// The first instant kept at `now`: midnight UTC on the first day of the month `months` months before
    /// `now`'s month. Trips requested before it are removed, and are refused when recorded.
    public func cutoff(at now: Date) -> Date {
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        let today = CivilCalendar.date(days: CivilCalendar.floorDivide(seconds, by: 86_400).quotient)
        let monthIndex = today.year * 12 + (today.month - 1) - Int64(months)
        let (year, month) = CivilCalendar.floorDivide(monthIndex, by: 12)
        let days = CivilCalendar.days(year: year, month: month + 1, day: 1)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400))
    }

    /// Refuses a trip requested before the cutoff at `now`: it would be removed at once.
    public func check(requestedAt: Date, now: Date) throws(ValidationError) {
        guard requestedAt >= cutoff(at: now) else {
            throw ValidationError(
                field: "requested_at", reason: "is older than the \(months) months this service keeps trips")
        }
    }
}
