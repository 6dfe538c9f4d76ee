import Foundation
import TripHistoryDomain

/// Turns trips into the localized strings of the trip list and detail screens.
///
/// Build one at start-up and share it: the initializer prepares every locale's formatters and tables
/// (about 70 ms of CPU), and `display(for:locale:timeZone:)` mostly reads them. It is safe to call from any
/// number of threads at once. For common values (see `LocaleFormatters`) no lock is taken on that path
/// except the one a time zone's offset lookup takes on that zone's ICU calendar; a currency outside
/// `LocaleFormatters.precomputedCurrencies` takes a short lock, and values outside the tables go to ICU,
/// whose `formatted` calls briefly lock Foundation's formatter cache.
public final class TripPresenter: Sendable {
    private let enUS: LocaleFormatters
    private let enGB: LocaleFormatters
    private let frFR: LocaleFormatters
    private let deDE: LocaleFormatters
    private let jaJP: LocaleFormatters
    private let esES: LocaleFormatters
    /// Every IANA zone the host knows, looked up without going through Foundation's locked zone cache.
    private let timeZones: [String: TimeZone]

    /// Prepares the formatters of every `SupportedLocale` and the table of known time zones.
    public init() {
        enUS = LocaleFormatters(.enUS)
        enGB = LocaleFormatters(.enGB)
        frFR = LocaleFormatters(.frFR)
        deDE = LocaleFormatters(.deDE)
        jaJP = LocaleFormatters(.jaJP)
        esES = LocaleFormatters(.esES)
        var zones: [String: TimeZone] = ["UTC": .gmt, "GMT": .gmt]
        for identifier in TimeZone.knownTimeZoneIdentifiers {
            zones[identifier] = TimeZone(identifier: identifier)
        }
        timeZones = zones
    }

    /// The display strings of `trip` in `locale`, with its request date and time shown in `timeZone`, or in
    /// the trip's own zone (`trip.details.timeZone`) when `timeZone` is nil. A trip zone the host does not
    /// know is shown in UTC. Never fails: out-of-range values (which validated trips never carry) are
    /// formatted as they are.
    public func display(for trip: Trip, locale: SupportedLocale, timeZone: TimeZone?) -> TripDisplay {
        let formatters = formatters(for: locale)
        let details = trip.details
        let zone = timeZone ?? self.timeZone(identifier: details.timeZone)
        let wallClock = Self.wallClock(details.requestedAt, in: zone)
        return TripDisplay(
            title: formatters.text.title(destination: Self.destination(of: details)),
            date: formatters.date(wallClock: wallClock),
            time: formatters.time(wallClock: wallClock),
            fare: formatters.fare(details.fare),
            distance: formatters.distance(meters: details.distanceMeters),
            duration: formatters.duration(seconds: details.durationSeconds),
            status: formatters.text.status(details.status)
        )
    }

    private func formatters(for locale: SupportedLocale) -> LocaleFormatters {
        switch locale {
        case .enUS: enUS
        case .enGB: enGB
        case .frFR: frFR
        case .deDE: deDE
        case .jaJP: jaJP
        case .esES: esES
        }
    }

    private func timeZone(identifier: String) -> TimeZone {
        timeZones[identifier] ?? TimeZone(identifier: identifier) ?? .gmt
    }

    /// `date` moved by `zone`'s offset at that instant, so that formatting it in GMT shows the zone's local
    /// date and time, daylight saving included.
    static func wallClock(_ date: Date, in zone: TimeZone) -> Date {
        date.addingTimeInterval(TimeInterval(zone.secondsFromGMT(for: date)))
    }
}
