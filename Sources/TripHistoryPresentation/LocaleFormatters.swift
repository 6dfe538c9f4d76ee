import Foundation
import TripHistoryDomain

/// Every formatter and word one locale needs, prepared once and only read afterwards, so any number of
/// threads share an instance without locking.
///
/// All styles are Foundation `FormatStyle` values. Dates are formatted in GMT after being shifted to the
/// display zone's wall-clock time (see `TripPresenter`), so each locale needs exactly one date and one time
/// style whatever zones trips come from. That matters because Foundation keeps the ICU formatters behind
/// its styles in a process-wide cache of 100 entries per kind that it empties when full: one style per
/// zone would fill it and make every call rebuild an ICU formatter.
final class LocaleFormatters: Sendable {
    /// Durations up to this many minutes are formatted once, at start-up, and looked up afterwards.
    static let precomputedDurationMinutes = 600

    let locale: Locale
    let text: LocalizedText
    private let dateStyle: Date.FormatStyle
    private let timeStyle: Date.FormatStyle
    private let distanceStyle: FloatingPointFormatStyle<Double>
    /// Whether road distances read in miles: true for the US and UK measurement systems (the UK signs
    /// roads in miles), false for metric.
    let usesMiles: Bool
    private let durationStyle: Duration.UnitsFormatStyle
    /// `durationByMinute[m]` is the text for `m` whole minutes.
    private let durationByMinute: [String]

    init(_ supported: SupportedLocale) {
        let locale = supported.locale
        self.locale = locale
        text = LocalizedText.forLocale(supported)
        var calendar = locale.calendar
        calendar.timeZone = .gmt
        dateStyle = .localeStyle(date: .medium, time: .none, locale: locale, calendar: calendar, timeZone: .gmt)
        timeStyle = .localeStyle(date: .none, time: .short, locale: locale, calendar: calendar, timeZone: .gmt)
        distanceStyle = FloatingPointFormatStyle<Double>(locale: locale).precision(.fractionLength(1))
        usesMiles = locale.measurementSystem != .metric
        let durationStyle = Duration.UnitsFormatStyle(
            allowedUnits: [.hours, .minutes], width: .abbreviated, zeroValueUnits: .hide
        ).locale(locale)
        self.durationStyle = durationStyle
        durationByMinute = (0...Self.precomputedDurationMinutes).map {
            (Duration.seconds($0) * 60).formatted(durationStyle)
        }
    }

    /// The day of a wall-clock time, in the locale's medium date style produced by `TripPresenter.wallClock`.
    func date(wallClock: Date) -> String {
        wallClock.formatted(dateStyle)
    }

    /// The time of day of a wall-clock time, in the locale's short time style produced by `TripPresenter.wallClock`.
    func time(wallClock: Date) -> String {
        wallClock.formatted(timeStyle)
    }

    /// The amount with exactly the currency's ISO minor-unit digits, so the shown value is the stored one
    /// without rounding, and the currency sign placed as ICU places it for this locale.
    func fare(_ money: Money) -> String {
        let digits = CurrencyMinorUnits.digits(for: money.currency.code)
        let amount = Decimal(sign: .plus, exponent: -digits, significand: Decimal(money.amountMinor))
        return amount.formatted(
            Decimal.FormatStyle.Currency(code: money.currency.code, locale: locale).precision(.fractionLength(digits))
        )
    }

    /// Kilometres or miles with one decimal, e.g. "5.2 km".
    func distance(meters: Int64) -> String {
        let metersPerUnit = usesMiles ? 1609.344 : 1000
        let number = (Double(meters) / metersPerUnit).formatted(distanceStyle)
        return number + (usesMiles ? text.mileSuffix : text.kilometreSuffix)
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
