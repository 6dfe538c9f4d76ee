import Foundation
import Synchronization
import TripHistoryDomain

/// Every formatter and word one locale needs, prepared once and only read afterwards, so any number of
/// threads share an instance without locking.
///
/// All styles are Foundation `FormatStyle` values. Dates are formatted in GMT after being shifted to the
/// display zone's wall-clock time (see `TripPresenter`), so each locale needs exactly one date and one time
/// style whatever zones trips come from. That matters because Foundation keeps the ICU formatters behind
/// its styles in a process-wide cache of 100 entries per kind that it empties when full: one style per
/// zone would fill it and make every call rebuild an ICU formatter.
///
/// Even so an ICU call costs one to two microseconds, so the common values are formatted ahead and looked
/// up: every time of day, the dates of the years trips are seen in (`DayStrings`), distances below
/// `precomputedDistanceTenths`, durations below `precomputedDurationMinutes`, and the fares of
/// `precomputedCurrencies` (`FareFormat`). Anything else is still formatted by ICU, so the output is the
/// same either way.
final class LocaleFormatters: Sendable {
    /// Durations up to this many minutes are formatted once, at start-up, and looked up afterwards.
    static let precomputedDurationMinutes = 600
    /// Distances below this many tenths of a kilometre or mile (500.0) are looked up.
    static let precomputedDistanceTenths = 5000
    /// Currencies whose `FareFormat` is built at start-up and read without locking: those of the markets
    /// the service runs in and their neighbours. Others are built on first use, behind a lock.
    static let precomputedCurrencies = [
        "USD", "EUR", "GBP", "JPY", "CAD", "AUD", "NZD", "CHF", "MXN", "BRL", "ARS", "CLP", "COP", "PEN",
        "SEK", "NOK", "DKK", "PLN", "CZK", "HUF", "TRY", "ZAR", "INR", "CNY", "HKD", "SGD", "KRW", "AED",
    ]

    let locale: Locale
    let text: LocalizedText
    let receiptText: ReceiptText
    private let dateStyle: Date.FormatStyle
    private let timeStyle: Date.FormatStyle
    private let dayStrings: DayStrings
    /// `timeByMinute[m]` is the text for `m` minutes after midnight.
    private let timeByMinute: [String]
    private let distanceStyle: FloatingPointFormatStyle<Double>
    /// `distanceByTenth[t]` is the text for `t` tenths of the road unit; nil if this locale's numbers do
    /// not read as digits, a decimal separator and a digit (then ICU formats every distance).
    private let distanceByTenth: [String]?
    private let fares: [String: FareFormat]
    /// Fare formats of currencies outside `precomputedCurrencies`, built on first use; at most one per
    /// ISO 4217 code, since `CurrencyCode` accepts nothing else.
    private let otherFares = Mutex<[String: FareFormat]>([:])
    /// Whether road distances read in miles: true for the US and UK measurement systems (the UK signs
    /// roads in miles), false for metric.
    let usesMiles: Bool
    private let durationStyle: Duration.UnitsFormatStyle
    /// `durationByMinute[m]` is the text for `m` whole minutes.
    private let durationByMinute: [String]

    init(_ supported: SupportedLocale) {
        let locale = supported.locale
        self.locale = locale
        let text = LocalizedText.forLocale(supported)
        self.text = text
        receiptText = ReceiptText.forLocale(supported)
        var calendar = locale.calendar
        calendar.timeZone = .gmt
        dateStyle = .localeStyle(date: .medium, time: .none, locale: locale, calendar: calendar, timeZone: .gmt)
        let timeStyle = Date.FormatStyle.localeStyle(
            date: .none, time: .short, locale: locale, calendar: calendar, timeZone: .gmt
        )
        self.timeStyle = timeStyle
        dayStrings = DayStrings(style: dateStyle, calendar: calendar)
        timeByMinute = (0..<1440).map { Date(timeIntervalSince1970: Double($0) * 60).formatted(timeStyle) }
        let distanceStyle = FloatingPointFormatStyle<Double>(locale: locale).precision(.fractionLength(1))
        self.distanceStyle = distanceStyle
        let usesMiles = locale.measurementSystem != .metric
        self.usesMiles = usesMiles
        distanceByTenth = Self.distanceTable(
            style: distanceStyle, suffix: usesMiles ? text.mileSuffix : text.kilometreSuffix
        )
        fares = Dictionary(
            uniqueKeysWithValues: Self.precomputedCurrencies.map {
                ($0, FareFormat(currency: $0, locale: locale))
            })
        let durationStyle = Duration.UnitsFormatStyle(
            allowedUnits: [.hours, .minutes], width: .abbreviated, zeroValueUnits: .hide
        ).locale(locale)
        self.durationStyle = durationStyle
        durationByMinute = (0...Self.precomputedDurationMinutes).map {
            (Duration.seconds($0) * 60).formatted(durationStyle)
        }
    }

    /// The day of a wall-clock time, in the locale's medium date style (an instant shifted by its
    /// zone's offset, as `TripPresenter.display(for:locale:timeZone:)` makes it).
    func date(wallClock: Date) -> String {
        guard let seconds = Self.wholeSeconds(wallClock) else { return wallClock.formatted(dateStyle) }
        return dayStrings.string(forDay: Int(CivilCalendar.floorDivide(Int64(seconds), by: 86_400).quotient))
    }

    /// The time of day of a wall-clock time, in the locale's short time style (an instant shifted
    /// by its zone's offset, as `TripPresenter.display(for:locale:timeZone:)` makes it).
    func time(wallClock: Date) -> String {
        guard let seconds = Self.wholeSeconds(wallClock) else { return wallClock.formatted(timeStyle) }
        return timeByMinute[Int(CivilCalendar.floorDivide(Int64(seconds), by: 86_400).remainder) / 60]
    }

    /// The amount with exactly the currency's ISO minor-unit digits, so the shown value is the stored one
    /// without rounding, and the currency sign placed as ICU places it for this locale.
    func fare(_ money: Money) -> String {
        let code = money.currency.code
        if let format = fares[code] { return format.format(money.amountMinor) }
        let format = otherFares.withLock { formats in
            if let format = formats[code] { return format }
            let format = FareFormat(currency: code, locale: locale)
            formats[code] = format
            return format
        }
        return format.format(money.amountMinor)
    }

    /// Kilometres or miles with one decimal, e.g. "5.2 km".
    func distance(meters: Int64) -> String {
        let metersPerUnit = usesMiles ? 1609.344 : 1000
        let value = Double(meters) / metersPerUnit
        if let distanceByTenth, let tenths = Self.tenths(value), tenths < distanceByTenth.count {
            return distanceByTenth[tenths]
        }
        return value.formatted(distanceStyle) + (usesMiles ? text.mileSuffix : text.kilometreSuffix)
    }

    /// `value` rounded to tenths the way ICU rounds it with one fraction digit: the shortest decimal that
    /// reads back as `value`, rounded half to even ("0.15" to 0.2, "0.25" to 0.2). Nil outside 0..<1e9.
    ///
    /// That decimal is above, at or below a midpoint `(j + 0.5) / 10` exactly when `value` is above, equal
    /// to or below the double nearest that midpoint, `Double(2j + 1) / 20`, so doubles are compared rather
    /// than decimals written out.
    static func tenths(_ value: Double) -> Int? {
        guard value >= 0, value < 1e9 else { return nil }
        func roundsAbove(_ tenths: Int) -> Bool {
            let midpoint = Double(2 * tenths + 1) / 20
            return value > midpoint || (value == midpoint && tenths % 2 == 1)
        }
        var tenths = Int((value * 10).rounded())
        while tenths > 0, !roundsAbove(tenths - 1) { tenths -= 1 }
        while roundsAbove(tenths) { tenths += 1 }
        return tenths
    }

    /// The texts of 0.0 up to `precomputedDistanceTenths` tenths, written as ICU writes them below 1,000
    /// (integer digits, the locale's decimal separator, one digit) when ICU's own output for a few
    /// values confirms that shape; nil otherwise.
    private static func distanceTable(style: FloatingPointFormatStyle<Double>, suffix: String) -> [String]? {
        let probe = 1.5.formatted(style)
        guard probe.hasPrefix("1"), probe.hasSuffix("5"), probe.count > 2 else { return nil }
        let separator = String(probe.dropFirst().dropLast())
        let table = (0..<precomputedDistanceTenths).map { "\($0 / 10)\(separator)\($0 % 10)\(suffix)" }
        for tenths in [0, 5, 10, 99, 100, 999, 1000, 1234, precomputedDistanceTenths - 1]
        where table[tenths] != (Double(tenths) / 10).formatted(style) + suffix {
            return nil
        }
        return table
    }

    /// The whole seconds since 1970 before `date`, or nil far outside any trip's range.
    private static func wholeSeconds(_ date: Date) -> Int? {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard abs(seconds) < 1e15 else { return nil }
        return Int(seconds)
    }

    /// Hours and minutes, rounded to the nearest minute (half a minute rounds up), e.g. "1 hr, 5 min".
    func duration(seconds: Int64) -> String {
        let minutes = seconds / 60 + (seconds % 60 >= 30 ? 1 : 0)
        if minutes >= 0, minutes <= Self.precomputedDurationMinutes {
            return durationByMinute[Int(minutes)]
        }
        return (Duration.seconds(minutes) * 60).formatted(durationStyle)
    }
}
