public import Foundation

/// Conversions between `Date` and the store's microsecond precision.
public enum Timestamp {
    /// Whole microseconds since 1970, rounded to the nearest; exact for any date the store returned.
    public static func micros(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }

    /// The date for a microsecond count.
    public static func date(micros: Int64) -> Date {
        Date(timeIntervalSince1970: Double(micros) / 1_000_000)
    }

    /// `date` truncated to what the store keeps, so values compare equal after a round trip.
    public static func normalized(_ date: Date) -> Date {
        self.date(micros: micros(date))
    }
}
