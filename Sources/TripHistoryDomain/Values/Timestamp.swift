public import Foundation

/// Conversions between `Date` and the store's microsecond precision.
public enum Timestamp {
    /// Whole microseconds since 1970, rounded to the nearest; exact for any date the store returned. The
    /// whole seconds are split off first, so the rounding sees the fraction at full precision: multiplying
    /// the whole interval would round twice once it passes 2^53 microseconds (beyond the year 2255).
    public static func micros(_ date: Date) -> Int64 {
        let interval = date.timeIntervalSince1970
        let seconds = interval.rounded(.down)
        return Int64(seconds) * 1_000_000 + Int64(((interval - seconds) * 1_000_000).rounded())
    }

    /// The date for a microsecond count: the whole seconds and the fraction converted apart, so the date is
    /// the nearest `Date` to the count even where a `Double` cannot hold the count exactly.
    public static func date(micros: Int64) -> Date {
        let (seconds, fraction) = CivilCalendar.floorDivide(micros, by: 1_000_000)
        return Date(timeIntervalSince1970: Double(seconds) + Double(fraction) / 1_000_000)
    }

    /// `date` truncated to what the store keeps, so values compare equal after a round trip.
    public static func normalized(_ date: Date) -> Date {
        self.date(micros: micros(date))
    }
}
