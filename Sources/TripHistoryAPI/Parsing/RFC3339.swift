import Foundation
import TripHistoryDomain

/// RFC 3339 timestamps and ISO 8601 calendar dates, parsed and written by hand: they are on every list
/// request and every trip in a response, and Foundation's formatters are both slower and more lenient.
enum RFC3339 {
    /// A calendar date without a time or zone.
    struct CivilDate: Hashable {
        let year: Int
        let month: Int
        let day: Int
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`. The offset is required. A `+` that arrived
    /// decoded as a space (a query string written without percent-encoding) is read as `+`.
    /// Fractions beyond microseconds are truncated, the store's precision.
    static func parseTimestamp(_ text: some StringProtocol) -> Date? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 20, let date = parseCivilDate(utf8) else { return nil }
        guard utf8[10] == UInt8(ascii: "T") || utf8[10] == UInt8(ascii: "t"),
            let hour = twoDigits(utf8, 11), utf8[13] == UInt8(ascii: ":"),
            let minute = twoDigits(utf8, 14), utf8[16] == UInt8(ascii: ":"),
            let second = twoDigits(utf8, 17),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var micros: Int64 = 0
        if utf8[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < utf8.count, let digit = digitValue(utf8[index]) {
                if digits < 6 { micros = micros * 10 + Int64(digit) }
                digits += 1
                index += 1
            }
            guard digits > 0, digits <= 9 else { return nil }
            if digits < 6 { for _ in digits..<6 { micros *= 10 } }
        }
        guard index < utf8.count else { return nil }
        let offsetSeconds: Int
        switch utf8[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == utf8.count else { return nil }
            offsetSeconds = 0
        case UInt8(ascii: "+"), UInt8(ascii: " "), UInt8(ascii: "-"):
            guard index + 6 == utf8.count, let offsetHour = twoDigits(utf8, index + 1),
                utf8[index + 3] == UInt8(ascii: ":"), let offsetMinute = twoDigits(utf8, index + 4),
                offsetHour < 24, offsetMinute < 60
            else { return nil }
            let magnitude = offsetHour * 3600 + offsetMinute * 60
            offsetSeconds = utf8[index] == UInt8(ascii: "-") ? -magnitude : magnitude
        default:
            return nil
        }
        let days = daysSinceEpoch(date)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetSeconds)
        let instant = Timestamp.date(micros: seconds * 1_000_000 + micros)
        return isWritable(instant) ? instant : nil
    }

    /// Whether `format` can write `date`: its UTC year is 0000 to 9999, the four digits RFC 3339 allows. An
    /// offset or a zone can move a date at either end outside them (`9999-12-31T23:00:00-05:00`); such an
    /// instant is refused where it is parsed, since a response could not echo it.
    static func isWritable(_ date: Date) -> Bool {
        (earliestWritableMicros...latestWritableMicros).contains(Timestamp.micros(date))
    }

    private static let earliestWritableMicros = CivilCalendar.days(year: 0, month: 1, day: 1) * 86_400_000_000
    private static let latestWritableMicros = CivilCalendar.days(year: 10_000, month: 1, day: 1) * 86_400_000_000 - 1

    /// Parses a calendar date `YYYY-MM-DD`, checking that the day exists.
    static func parseDate(_ text: some StringProtocol) -> CivilDate? {
        let utf8 = Array(text.utf8)
        guard utf8.count == 10 else { return nil }
        return parseCivilDate(utf8)
    }

    /// The instant `date` begins in `timeZone`: midnight, or the first instant after it on days whose
    /// midnight is skipped by a daylight-saving change.
    static func startOfDay(_ date: CivilDate, in timeZone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        // Noon of the date in the zone, then its day's start: asking for noon avoids the nonexistent-midnight
        // case entirely. Noon comes from the proleptic day count, as timestamps do: Calendar's components
        // would read years before 1582 as Julian and year 0 as 1 BC.
        let noonUTC = Int64(daysSinceEpoch(date)) * 86_400 + 43_200
        let offset = Int64(timeZone.secondsFromGMT(for: Timestamp.date(micros: noonUTC * 1_000_000)))
        return calendar.startOfDay(for: Timestamp.date(micros: (noonUTC - offset) * 1_000_000))
    }

    /// Writes `date` in UTC with a `Z` and always 6 fraction digits, the store's microseconds: one fixed
    /// precision, so every reader (pandas' `to_datetime` among them) parses every timestamp with one format.
    static func format(_ date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(27)
        append(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes `write(_:into:)` writes: `YYYY-MM-DDTHH:MM:SS.ffffffZ`.
    static let maximumLength = 27

    /// Appends what `format` returns, without building a String: responses write many timestamps.
    static func append(_ date: Date, to bytes: inout [UInt8]) {
        bytes.append(atMost: maximumLength) { write(date, into: $0) }
    }

    /// Writes what `format` returns into `output`, which has room for `maximumLength` bytes, and returns how
    /// many bytes it wrote.
    static func write(_ date: Date, into output: UnsafeMutablePointer<UInt8>) -> Int {
        let micros = Timestamp.micros(date)
        let (seconds, fraction) = CivilCalendar.floorDivide(micros, by: 1_000_000)
        let (days, secondOfDay) = CivilCalendar.floorDivide(seconds, by: 86_400)
        let civil = civilDate(daysSinceEpoch: days)
        var cursor = output
        func digits(_ value: Int, width: Int) {
            DecimalDigits.write(UInt64(truncatingIfNeeded: value), width: width, into: cursor)
            cursor += width
        }
        func byte(_ value: UInt8) {
            cursor.pointee = value
            cursor += 1
        }
        digits(civil.year, width: 4)
        byte(UInt8(ascii: "-"))
        digits(civil.month, width: 2)
        byte(UInt8(ascii: "-"))
        digits(civil.day, width: 2)
        byte(UInt8(ascii: "T"))
        digits(Int(secondOfDay / 3600), width: 2)
        byte(UInt8(ascii: ":"))
        digits(Int(secondOfDay / 60 % 60), width: 2)
        byte(UInt8(ascii: ":"))
        digits(Int(secondOfDay % 60), width: 2)
        byte(UInt8(ascii: "."))
        digits(Int(fraction), width: 6)
        byte(UInt8(ascii: "Z"))
        return output.distance(to: cursor)
    }

    private static func parseCivilDate(_ utf8: [UInt8]) -> CivilDate? {
        let base = 0
        guard utf8.count >= 10 else { return nil }
        guard let high = twoDigits(utf8, base), let low = twoDigits(utf8, base + 2),
            utf8[base + 4] == UInt8(ascii: "-"), let month = twoDigits(utf8, base + 5),
            utf8[base + 7] == UInt8(ascii: "-"), let day = twoDigits(utf8, base + 8)
        else { return nil }
        let year = high * 100 + low
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month) else { return nil }
        return CivilDate(year: year, month: month, day: day)
    }

    private static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The two-digit number at `offset`, or nil when out of bounds or not digits.
    private static func twoDigits(_ utf8: [UInt8], _ offset: Int) -> Int? {
        guard offset >= 0, offset + 1 < utf8.count, let tens = digitValue(utf8[offset]),
            let ones = digitValue(utf8[offset + 1])
        else { return nil }
        return tens * 10 + ones
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    /// Days from 1970-01-01 to `date`.
    static func daysSinceEpoch(_ date: CivilDate) -> Int {
        Int(CivilCalendar.days(year: Int64(date.year), month: Int64(date.month), day: Int64(date.day)))
    }

    /// The inverse of `daysSinceEpoch`.
    static func civilDate(daysSinceEpoch days: Int64) -> CivilDate {
        let civil = CivilCalendar.date(days: days)
        return CivilDate(year: Int(civil.year), month: Int(civil.month), day: Int(civil.day))
    }
}
