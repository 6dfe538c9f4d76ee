/// The calendar period a stats bucket covers, in the query's time zone.
public enum StatsGranularity: String, Sendable, Hashable, CaseIterable {
    /// Local midnight to local midnight: 23 or 25 hours on daylight-saving changes.
    case day
    /// ISO weeks, Monday 00:00 local time to the next Monday.
    case week
    /// The first of the month 00:00 local time to the first of the next.
    case month
}
