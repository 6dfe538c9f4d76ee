import Foundation
import Testing
import TripHistoryDomain

@testable import TripHistoryPresentation

@Suite struct TripPresenterTests {
    private static let presenter = TripPresenter()

    private func display(
        _ trip: Trip, _ locale: SupportedLocale = .enUS, in zone: String? = nil
    ) throws
        -> TripDisplay
    {
        let timeZone = try zone.map { try #require(TimeZone(identifier: $0)) }
        return Self.presenter.display(for: trip, locale: locale, timeZone: timeZone)
    }

    @Test(arguments: [
        (
            SupportedLocale.enUS,
            TripDisplay(
                title: "Trip to 350 5th Ave", date: "Mar 1, 2026", time: "2:05\u{202F}PM", fare: "$18.34",
                distance: "3.2 mi", duration: "21 min", status: "Completed")
        ),
        (
            .enGB,
            TripDisplay(
                title: "Trip to 350 5th Ave", date: "1 Mar 2026", time: "14:05", fare: "US$18.34",
                distance: "3.2 mi", duration: "21 min", status: "Completed")
        ),
        (
            .frFR,
            TripDisplay(
                title: "Trajet vers 350 5th Ave", date: "1 mars 2026", time: "14:05", fare: "18,34\u{00A0}$US",
                distance: "5,2\u{00A0}km", duration: "21\u{00A0}min", status: "Terminé")
        ),
        (
            .deDE,
            TripDisplay(
                title: "Fahrt nach 350 5th Ave", date: "01.03.2026", time: "14:05", fare: "18,34\u{00A0}$",
                distance: "5,2 km", duration: "21 Min.", status: "Abgeschlossen")
        ),
        (
            .jaJP,
            TripDisplay(
                title: "350 5th Aveへの乗車", date: "2026/03/01", time: "14:05", fare: "$18.34",
                distance: "5.2 km", duration: "21分", status: "完了")
        ),
        (
            .esES,
            TripDisplay(
                title: "Viaje a 350 5th Ave", date: "1 mar 2026", time: "14:05", fare: "18,34\u{00A0}US$",
                distance: "5,2 km", duration: "21 min", status: "Completado")
        ),
    ])
    func sampleTripInEveryLocale(locale: SupportedLocale, expected: TripDisplay) throws {
        #expect(try display(TripFixture.trip(), locale) == expected)
    }

    @Test func everySupportedLocaleHasARow() {
        #expect(SupportedLocale.allCases.count == 6)
    }

    @Test(arguments: [
        (Int64(1834), "USD", SupportedLocale.enUS, "$18.34"),
        (1500, "JPY", .enUS, "¥1,500"),
        (1_234_567, "BHD", .enUS, "BHD\u{00A0}1,234.567"),
        (1500, "KWD", .enUS, "KWD\u{00A0}1.500"),
        (5, "USD", .enUS, "$0.05"),
        (0, "EUR", .enUS, "€0.00"),
        (1834, "EUR", .frFR, "18,34\u{00A0}€"),
        (1834, "USD", .frFR, "18,34\u{00A0}$US"),
        (1500, "JPY", .frFR, "1\u{202F}500\u{00A0}JPY"),
        (1834, "GBP", .enGB, "£18.34"),
        (1834, "EUR", .deDE, "18,34\u{00A0}€"),
        (1500, "JPY", .jaJP, "¥1,500"),
        (1_234_567, "BHD", .deDE, "1.234,567\u{00A0}BHD"),
    ])
    func fareUsesTheCurrencysMinorUnitDigits(
        minor: Int64, currency: String, locale: SupportedLocale, expected: String
    )
        throws
    {
        #expect(try display(TripFixture.trip(fareMinor: minor, currency: currency), locale).fare == expected)
    }

    @Test(arguments: [
        (Int64(5230), SupportedLocale.enUS, "3.2 mi"),
        (5230, .enGB, "3.2 mi"),
        (5230, .frFR, "5,2\u{00A0}km"),
        (5230, .deDE, "5,2 km"),
        (5230, .jaJP, "5.2 km"),
        (5230, .esES, "5,2 km"),
        (0, .enUS, "0.0 mi"),
        (1_234_500, .enUS, "767.1 mi"),
        (1_234_500, .frFR, "1\u{202F}234,5\u{00A0}km"),
    ])
    func distanceUsesTheLocalesRoadUnit(meters: Int64, locale: SupportedLocale, expected: String) throws {
        #expect(try display(TripFixture.trip(distanceMeters: meters), locale).distance == expected)
    }

    @Test(arguments: [
        (Int64(1260), SupportedLocale.enUS, "21 min"),
        (3900, .enUS, "1 hr, 5 min"),
        (3600, .enUS, "1 hr"),
        (29, .enUS, "0 min"),
        (30, .enUS, "1 min"),
        (3900, .frFR, "1\u{202F}h et 5\u{00A0}min"),
        (3900, .deDE, "1 Std., 5 Min."),
        (3900, .jaJP, "1時間 5分"),
        (3900, .esES, "1 h y 5 min"),
        // Either side of the precomputed table's last entry, which must read like the formatted values.
        (36000, .enUS, "10 hr"),
        (36060, .enUS, "10 hr, 1 min"),
        (36060, .frFR, "10\u{202F}h et 1\u{00A0}min"),
    ])
    func durationIsHoursAndMinutes(seconds: Int64, locale: SupportedLocale, expected: String) throws {
        #expect(try display(TripFixture.trip(durationSeconds: seconds), locale).duration == expected)
    }

    @Test(arguments: [
        (SupportedLocale.enUS, "Canceled"), (.enGB, "Cancelled"), (.frFR, "Annulé"), (.deDE, "Storniert"),
        (.jaJP, "キャンセル"), (.esES, "Cancelado"),
    ])
    func canceledStatusIsTranslated(locale: SupportedLocale, expected: String) throws {
        #expect(try display(TripFixture.trip(status: .canceled), locale).status == expected)
    }

    @Test(arguments: [
        ("350 5th Ave, New York, NY 10118", "Trip to 350 5th Ave"),
        ("  JFK Terminal 4  ", "Trip to JFK Terminal 4"),
        (", , Penn Station, New York", "Trip to Penn Station"),
        (" , ", "Trip to New York"),
        ("170, Avenida Insurgentes Sur, CDMX", "Trip to 170, Avenida Insurgentes Sur"),
        ("12, 14", "Trip to 12, 14"),
    ])
    func titleNamesTheFirstPartOfTheDropoffAddress(address: String, expected: String) throws {
        #expect(try display(TripFixture.trip(dropoffAddress: address)).title == expected)
    }

    @Test func tripIsShownInItsOwnZoneByDefault() throws {
        let trip = try TripFixture.trip(timeZone: "America/New_York", requestedAt: "2026-03-01T23:30:00Z")
        let shown = try display(trip)
        #expect(shown.date == "Mar 1, 2026")
        #expect(shown.time == "6:30\u{202F}PM")
    }

    @Test func displayZoneOverridesTheTripsZone() throws {
        let trip = try TripFixture.trip(timeZone: "America/New_York", requestedAt: "2026-03-01T23:30:00Z")
        let shown = try display(trip, in: "Asia/Tokyo")
        #expect(shown.date == "Mar 2, 2026")
        #expect(shown.time == "8:30\u{202F}AM")
    }

    @Test func unknownTripZoneFallsBackToUTC() throws {
        let trip = try TripFixture.trip(timeZone: "Mars/Olympus_Mons", requestedAt: "2026-03-01T23:30:00Z")
        #expect(try display(trip, .enGB).time == "23:30")
    }

    @Test(arguments: [
        // New York springs forward at 07:00Z on 8 March 2026: 1:55 AM EST is followed by 3:00 AM EDT.
        ("2026-03-08T06:55:00Z", "America/New_York", SupportedLocale.enUS, "Mar 8, 2026", "1:55\u{202F}AM"),
        ("2026-03-08T07:05:00Z", "America/New_York", .enUS, "Mar 8, 2026", "3:05\u{202F}AM"),
        // Paris springs forward at 01:00Z on 29 March 2026.
        ("2026-03-29T00:55:00Z", "Europe/Paris", .frFR, "29 mars 2026", "01:55"),
        ("2026-03-29T01:10:00Z", "Europe/Paris", .frFR, "29 mars 2026", "03:10"),
        // And falls back at 01:00Z on 25 October 2026.
        ("2026-10-25T01:10:00Z", "Europe/Paris", .frFR, "25 oct. 2026", "02:10"),
    ])
    func daylightSavingTransitionsShowLocalTime(
        requestedAt: String, zone: String, locale: SupportedLocale, date: String, time: String
    ) throws {
        let shown = try display(TripFixture.trip(timeZone: zone, requestedAt: requestedAt), locale)
        #expect(shown.date == date)
        #expect(shown.time == time)
    }

    /// The shown date and time are the locale's medium date and short time styles in the trip's zone, as a
    /// `DateFormatter` set to that zone writes them, across a year of hours including both DST changes.
    @Test(arguments: SupportedLocale.allCases)
    func dateAndTimeMatchTheLocalesFormatterStyles(locale: SupportedLocale) throws {
        let zones = ["America/New_York", "Europe/Paris", "Asia/Tokyo", "Australia/Lord_Howe", "Asia/Kathmandu"]
        for zone in zones {
            let timeZone = try #require(TimeZone(identifier: zone))
            let dates = DateFormatter()
            dates.locale = locale.locale
            dates.timeZone = timeZone
            dates.dateStyle = .medium
            let times = DateFormatter()
            times.locale = locale.locale
            times.timeZone = timeZone
            times.timeStyle = .short
            var instant = try TripFixture.instant("2026-01-01T00:17:00Z")
            for _ in 0..<(365 * 24 / 7) {
                let trip = try TripFixture.trip(timeZone: zone, requestedAt: instant.formatted(.iso8601))
                let shown = Self.presenter.display(for: trip, locale: locale, timeZone: nil)
                #expect(shown.date == dates.string(from: instant), "\(zone) \(instant)")
                #expect(shown.time == times.string(from: instant), "\(zone) \(instant)")
                instant.addTimeInterval(7 * 3600)
            }
        }
    }

    @Test func patternFieldsSkipQuotedText() {
        let fields = Date.FormatStyle.fields(of: "d 'de' MMM 'de' y, h:mm a").map { "\($0.letter)\($0.count)" }
        #expect(fields == ["d1", "M3", "y1", "h1", "m2", "a1"])
    }

    @Test func supportedLocalesExposeTheirContentLanguageTag() {
        #expect(SupportedLocale.allCases.map(\.identifier) == ["en-US", "en-GB", "fr-FR", "de-DE", "ja-JP", "es-ES"])
    }

    @Test func concurrentCallsAgreeWithSequentialOnes() async throws {
        let zones = ["America/New_York", "Europe/Paris", "Asia/Tokyo", "Australia/Sydney", "America/Los_Angeles"]
        var trips: [Trip] = []
        for (index, zone) in zones.enumerated() {
            trips.append(
                try TripFixture.trip(
                    timeZone: zone, requestedAt: "2026-0\(index + 3)-1\(index)T1\(index):3\(index):00Z",
                    distanceMeters: Int64(1000 * index + 123), durationSeconds: Int64(700 * index),
                    fareMinor: Int64(999 * index), currency: ["USD", "EUR", "JPY", "AUD", "BHD"][index]
                ))
        }
        let jobs = trips.flatMap { trip in SupportedLocale.allCases.map { (trip, $0) } }
        let expected = jobs.map { Self.presenter.display(for: $0.0, locale: $0.1, timeZone: nil) }
        let rounds = 200
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<rounds {
                group.addTask {
                    zip(jobs, expected).filter { job, want in
                        Self.presenter.display(for: job.0, locale: job.1, timeZone: nil) != want
                    }.count
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        #expect(Set(expected).count == jobs.count)
    }
}
