public import Foundation
public import TripHistoryDomain

/// Turns trips into the localized strings of the trip list and detail screens.
///
/// Build one at start-up and share it: the initializer prepares every locale's formatters and tables, and `display(for:locale:timeZone:)` mostly reads them. It is safe to call from any
/// number of threads at once. For common values (see `LocaleFormatters` and `ZoneOffsets`) no lock is taken
/// on that path; a currency outside `LocaleFormatters.precomputedCurrencies` takes a short lock, and values
/// outside the tables go to ICU, whose calls briefly lock Foundation's formatter cache or the zone's
/// calendar.
public final class TripPresenter: Sendable {
    private let enUS: LocaleFormatters
    private let enGB: LocaleFormatters
    private let frFR: LocaleFormatters
    private let deDE: LocaleFormatters
    private let jaJP: LocaleFormatters
    private let esES: LocaleFormatters
    /// Every IANA zone the host knows with its offset table, looked up without going through Foundation's
    /// locked zone cache.
    private let zones: [String: ZoneOffsets]

    /// Prepares the formatters of every `SupportedLocale` and the table of known time zones.
    public init() {
        enUS = LocaleFormatters(.enUS)
        enGB = LocaleFormatters(.enGB)
        frFR = LocaleFormatters(.frFR)
        deDE = LocaleFormatters(.deDE)
        jaJP = LocaleFormatters(.jaJP)
        esES = LocaleFormatters(.esES)
        let gmt = ZoneOffsets(.gmt)
        var zones = ["UTC": gmt, "GMT": gmt]
        for identifier in TimeZone.knownTimeZoneIdentifiers {
            if let zone = TimeZone(identifier: identifier) { zones[identifier] = ZoneOffsets(zone) }
        }
        self.zones = zones
    }

    /// The display strings of `trip` in `locale`, with its request date and time shown in `timeZone`, or in
    /// the trip's own zone (`trip.details.timeZone`) when `timeZone` is nil. A trip zone the host does not
    /// know is shown in UTC. Never fails: out-of-range values (which validated trips never carry) are
    /// formatted as they are.
    public func display(for trip: Trip, locale: SupportedLocale, timeZone: TimeZone?) -> TripDisplay {
        let formatters = formatters(for: locale)
        let details = trip.details
        // The request time moved by its zone's offset at that instant, so that formatting it in GMT shows the
        // zone's local date and time, daylight saving included.
        let requestedAt = details.requestedAt
        let offset = offsetFromGMT(at: requestedAt, in: timeZone, orTripZone: details.timeZone)
        let wallClock = requestedAt.addingTimeInterval(TimeInterval(offset))
        return TripDisplay(
            title: formatters.text.title(destination: Self.destination(of: details)),
            date: formatters.date(wallClock: wallClock),
            time: formatters.time(wallClock: wallClock),
            fare: formatters.fare(Money(amountMinor: trip.totalMinor, currency: details.fare.currency)),
            distance: formatters.distance(meters: details.distanceMeters),
            duration: formatters.duration(seconds: details.durationSeconds),
            status: formatters.text.status(details.status)
        )
    }

    func formatters(for locale: SupportedLocale) -> LocaleFormatters {
        switch locale {
        case .enUS: enUS
        case .enGB: enGB
        case .frFR: frFR
        case .deDE: deDE
        case .jaJP: jaJP
        case .esES: esES
        }
    }

    /// The offset from GMT at `date` of `timeZone`, or of the trip's zone `tripZone` when it is nil (GMT when
    /// the host does not know that zone): from the zone's table when there is one. Identifiers name a zone's
    /// rules exactly (a zone made from a fixed offset is named after it, "GMT+0530", never an IANA name), so
    /// a zone found by its identifier has the same offsets.
    private func offsetFromGMT(at date: Date, in timeZone: TimeZone?, orTripZone tripZone: String) -> Int {
        if let timeZone {
            return zones[timeZone.identifier]?.secondsFromGMT(for: date) ?? timeZone.secondsFromGMT(for: date)
        }
        if let offsets = zones[tripZone] { return offsets.secondsFromGMT(for: date) }
        return (TimeZone(identifier: tripZone) ?? .gmt).secondsFromGMT(for: date)
    }
}
