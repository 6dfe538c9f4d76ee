import TripHistoryDomain

/// Exact conversion between microseconds since 1970 and PostgreSQL's `timestamptz` text form in UTC,
/// `YYYY-MM-DD HH:MM:SS.ffffff+00`, by integer arithmetic only (no Double, no DateFormatter).
public enum PostgresTimestamp {
    private static let microsPerDay: Int64 = 86_400_000_000

    /// The text PostgreSQL parses back to exactly `micros`, whatever the session time zone.
    public static func format(micros: Int64) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        append(micros: micros, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the text form of `micros` to `bytes`; used on hot paths such as COPY rows.
    public static func append(micros: Int64, to bytes: inout [UInt8]) {
        let (days, remainder) = CivilCalendar.floorDivide(micros, by: microsPerDay)
        let (year, month, day) = civil(fromDays: days)
        let seconds = remainder / 1_000_000
        let fraction = remainder % 1_000_000
        // PostgreSQL has no year 0: astronomical year 0 is 1 BC.
        let bc = year <= 0
        appendPadded(bc ? 1 - year : year, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(day, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        appendPadded(seconds / 3600, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(seconds / 60 % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(seconds % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        appendPadded(fraction, width: 6, to: &bytes)
        bytes.append(UInt8(ascii: "+"))
        bytes.append(UInt8(ascii: "0"))
        bytes.append(UInt8(ascii: "0"))
        if bc {
            bytes.append(contentsOf: " BC".utf8)
        }
    }

    /// Parses PostgreSQL's ISO output (`2026-03-01 12:34:56.123456+00`, any offset, optional fraction and
    /// ` BC`) to microseconds since 1970; nil for anything else, including `infinity`.
    public static func parse(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    static func parse(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        var cursor = 0
        func number(minDigits: Int, maxDigits: Int) -> Int64? {
            var value: Int64 = 0
            var digits = 0
            while cursor < bytes.count, digits < maxDigits {
                let digit = bytes[cursor] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                value = value * 10 + Int64(digit)
                digits += 1
                cursor += 1
            }
            return digits >= minDigits ? value : nil
        }
        func expect(_ character: Character) -> Bool {
            guard cursor < bytes.count, bytes[cursor] == character.asciiValue else { return false }
            cursor += 1
            return true
        }
        guard var year = number(minDigits: 4, maxDigits: 6), expect("-"),
            let month = number(minDigits: 2, maxDigits: 2), (1...12).contains(month), expect("-"),
            let day = number(minDigits: 2, maxDigits: 2), (1...31).contains(day), expect(" "),
            let hour = number(minDigits: 2, maxDigits: 2), hour < 24, expect(":"),
            let minute = number(minDigits: 2, maxDigits: 2), minute < 60, expect(":"),
            let second = number(minDigits: 2, maxDigits: 2), second < 60
        else { return nil }
        var fraction: Int64 = 0
        if expect(".") {
            let start = cursor
            guard let digits = number(minDigits: 1, maxDigits: 6) else { return nil }
            fraction = digits
            for _ in 0..<(6 - (cursor - start)) { fraction *= 10 }
        }
        guard cursor < bytes.count else { return nil }
        let sign: Int64
        switch bytes[cursor] {
        case UInt8(ascii: "+"): sign = 1
        case UInt8(ascii: "-"): sign = -1
        default: return nil
        }
        cursor += 1
        guard let offsetHours = number(minDigits: 2, maxDigits: 2) else { return nil }
        var offsetSeconds = offsetHours * 3600
        if expect(":") {
            guard let offsetMinutes = number(minDigits: 2, maxDigits: 2) else { return nil }
            offsetSeconds += offsetMinutes * 60
            if expect(":") {
                guard let extra = number(minDigits: 2, maxDigits: 2) else { return nil }
                offsetSeconds += extra
            }
        }
        if cursor < bytes.count {
            guard expect(" "), expect("B"), expect("C") else { return nil }
            year = 1 - year
        }
        guard cursor == bytes.count else { return nil }
        let days = days(fromYear: year, month: month, day: day)
        let secondsOfDay = hour * 3600 + minute * 60 + second - sign * offsetSeconds
        return (days * 86_400 + secondsOfDay) * 1_000_000 + fraction
    }

    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        CivilCalendar.date(days: days)
    }

    static func days(fromYear year: Int64, month: Int64, day: Int64) -> Int64 {
        CivilCalendar.days(year: year, month: month, day: day)
    }

    private static func appendPadded(_ value: Int64, width: Int, to bytes: inout [UInt8]) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0 && count < buffer.count
            for _ in count..<max(width, count) { bytes.append(UInt8(ascii: "0")) }
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }
}
