import TripHistoryAPI
import TripHistoryDomain

/// The `Date` header value (RFC 9110 §5.6.7 IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`) of
/// responses written outside the framework, which stamps its own. Formatted at most once a second per cache.
struct HTTPDate {
    private var second: Int64 = .min
    private var text = ""

    /// The value for `secondsSince1970`, reusing the last one within the same second.
    mutating func value(secondsSince1970: Int64) -> String {
        if secondsSince1970 != second {
            second = secondsSince1970
            text = Self.format(secondsSince1970: secondsSince1970)
        }
        return text
    }

    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func format(secondsSince1970 seconds: Int64) -> String {
        let (days, secondOfDay) = CivilCalendar.floorDivide(seconds, by: 86_400)
        let date = CivilCalendar.date(days: days)
        let weekday = weekdays[Int(CivilCalendar.floorDivide(days, by: 7).remainder)]
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekday), \(two(date.day)) \(months[Int(date.month) - 1]) \(date.year) "
            + "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) GMT"
    }
}
