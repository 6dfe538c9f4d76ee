import Foundation

extension Date.FormatStyle {
    /// The locale's own date and time patterns for `DateFormatter.Style` (e.g. ICU's medium date `dd.MM.y`
    /// for de-DE), as a value `FormatStyle`.
    ///
    /// `DateFormatter` knows the styles but is a mutable class that is not documented as safe for concurrent
    /// use on Linux; `Date.FormatStyle` is a `Sendable` value but its `.abbreviated`/`.shortened` presets are
    /// fixed skeletons that differ from some locales' styles (de-DE would read "1. März 2026", fr-FR "1:55").
    /// So the pattern is read from a `DateFormatter` once, here, and rebuilt from the fields it uses; ICU
    /// turns those fields back into the same pattern for the locale.
    static func localeStyle(
        date: DateFormatter.Style, time: DateFormatter.Style, locale: Locale, calendar: Calendar, timeZone: TimeZone
    ) -> Date.FormatStyle {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.calendar = calendar
        formatter.timeZone = timeZone
        formatter.dateStyle = date
        formatter.timeStyle = time
        let pattern = formatter.dateFormat ?? ""
        let fields = fields(of: pattern)
        let hasDayPeriod = fields.contains { $0.letter == "a" || $0.letter == "b" || $0.letter == "B" }
        let base = Date.FormatStyle(locale: locale, calendar: calendar, timeZone: timeZone)
        return fields.reduce(base) { style, field in style.adding(field, hasDayPeriod: hasDayPeriod) }
    }

    /// The runs of pattern letters in an ICU date pattern, e.g. `("d", 1), ("M", 3), ("y", 1)` for
    /// `d MMM y`; quoted literal text is skipped.
    static func fields(of pattern: String) -> [(letter: Character, count: Int)] {
        var fields: [(letter: Character, count: Int)] = []
        var inQuote = false
        for character in pattern {
            if character == "'" {
                inQuote.toggle()
                continue
            }
            guard !inQuote, character.isASCII, character.isLetter else { continue }
            if let last = fields.last, last.letter == character {
                fields[fields.count - 1].count += 1
            } else {
                fields.append((character, 1))
            }
        }
        return fields
    }

    private func adding(_ field: (letter: Character, count: Int), hasDayPeriod: Bool) -> Date.FormatStyle {
        let dayPeriod: Date.FormatStyle.Symbol.Hour.AMPMStyle = hasDayPeriod ? .abbreviated : .omitted
        switch (field.letter, field.count) {
        case ("G", _): return era()
        case ("y", 2): return year(.twoDigits)
        case ("y", _): return year(.defaultDigits)
        case ("M", 1), ("L", 1): return month(.defaultDigits)
        case ("M", 2), ("L", 2): return month(.twoDigits)
        case ("M", 3), ("L", 3): return month(.abbreviated)
        case ("M", 4), ("L", 4): return month(.wide)
        case ("M", _), ("L", _): return month(.narrow)
        case ("d", 1): return day(.defaultDigits)
        case ("d", _): return day(.twoDigits)
        case ("E", 4): return weekday(.wide)
        case ("E", _): return weekday(.abbreviated)
        case ("h", 1), ("H", 1), ("k", 1), ("K", 1): return hour(.defaultDigits(amPM: dayPeriod))
        case ("h", _), ("H", _), ("k", _), ("K", _): return hour(.twoDigits(amPM: dayPeriod))
        case ("m", _): return minute(.twoDigits)
        case ("s", _): return second(.twoDigits)
        default: return self
        }
    }
}
