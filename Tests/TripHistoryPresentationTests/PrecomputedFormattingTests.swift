import Foundation
import Testing
import TripHistoryDomain

@testable import TripHistoryPresentation

/// The lookup tables and hand-written digits of `LocaleFormatters` against ICU formatting every value, on
/// both sides of each table's edge.
@Suite struct PrecomputedFormattingTests {
    private static let presenter = TripPresenter()

    private func display(_ trip: Trip, _ locale: SupportedLocale, in zone: String? = nil) throws -> TripDisplay {
        let timeZone = try zone.map { try #require(TimeZone(identifier: $0)) }
        return Self.presenter.display(for: trip, locale: locale, timeZone: timeZone)
    }

    /// What the presenter wrote before fares were written from pieces: ICU with a style built per call.
    private static func icuFare(_ minor: Int64, _ code: String, _ locale: SupportedLocale) -> String {
        let digits = CurrencyMinorUnits.digits(for: code)
        return Decimal(sign: .plus, exponent: -digits, significand: Decimal(minor)).formatted(
            Decimal.FormatStyle.Currency(code: code, locale: locale.locale).precision(.fractionLength(digits))
        )
    }

    @Test(arguments: SupportedLocale.allCases)
    func faresMatchICUForEveryCurrency(locale: SupportedLocale) throws {
        let codes = Locale.Currency.isoCurrencies.map(\.identifier).filter { CurrencyCode($0) != nil }
        #expect(codes.count > 100)
        var generator = SplitMix(seed: 7)
        let fixed: [Int64] = [
            0, 1, 9, 10, 99, 100, 101, 999, 1000, 1001, 9999, 10000, 12345, 99999, 100_000, 123_456, 999_999,
            1_000_000, 10_000_000, 123_456_789, 999_999_999_999, 1_000_000_000_000, 9_223_372_036_854_775_807,
            -1, -1834, -1_234_567,
        ]
        for code in codes {
            let random = (0..<20).map { _ in Int64(generator.next() % 10_000_000) }
            for minor in fixed + random {
                let trip = try TripFixture.trip(fareMinor: minor, currency: code)
                #expect(try display(trip, locale).fare == Self.icuFare(minor, code, locale), "\(code) \(minor)")
            }
        }
    }

    @Test(arguments: SupportedLocale.allCases)
    func commonCurrenciesAreWrittenWithoutICU(locale: SupportedLocale) {
        for code in LocaleFormatters.precomputedCurrencies {
            #expect(FareFormat(currency: code, locale: locale.locale).writesDigitsItself, "\(code)")
        }
    }

    @Test(arguments: [
        (Int64(1500), "XPF", SupportedLocale.enUS), (1_234_567, "OMR", .frFR), (99, "ISK", .deDE),
        (123_456, "UYU", .esES), (5000, "VND", .jaJP), (-250, "USD", .enUS), (-250, "EUR", .frFR),
        (2_000_000_000_000, "JPY", .enUS), (1_000_000_000_000, "USD", .deDE),
    ])
    func uncommonCurrenciesAndAmountsOutsideTheWrittenRangeMatchICU(
        minor: Int64, code: String, locale: SupportedLocale
    ) throws {
        let trip = try TripFixture.trip(fareMinor: minor, currency: code)
        #expect(try display(trip, locale).fare == Self.icuFare(minor, code, locale))
    }

    /// Every tenth in the table, a few metres either side of where ICU's rounding moves to it, for both
    /// road units; then the first values past the table.
    @Test(arguments: [SupportedLocale.enUS, .frFR, .esES])
    func distancesMatchICUAroundEveryRoundingBoundary(locale: SupportedLocale) throws {
        let formatters = LocaleFormatters(locale)
        let metersPerUnit = formatters.usesMiles ? 1609.344 : 1000
        let style = FloatingPointFormatStyle<Double>(locale: locale.locale).precision(.fractionLength(1))
        let suffix = formatters.usesMiles ? formatters.text.mileSuffix : formatters.text.kilometreSuffix
        let lastTenth = LocaleFormatters.precomputedDistanceTenths
        var checked: Set<Int64> = []
        for tenth in 0...(lastTenth + 20) {
            let boundary = Int64(((Double(tenth) + 0.5) / 10 * metersPerUnit).rounded())
            for meters in (boundary - 2)...(boundary + 2) where meters >= 0 && checked.insert(meters).inserted {
                let expected = (Double(meters) / metersPerUnit).formatted(style) + suffix
                #expect(formatters.distance(meters: meters) == expected, "\(meters) m")
            }
        }
    }

    @Test func distanceTenthsRoundTheShortestDecimalHalfToEven() {
        #expect(LocaleFormatters.tenths(0.15) == 2)
        #expect(LocaleFormatters.tenths(0.25) == 2)
        #expect(LocaleFormatters.tenths(0.35) == 4)
        #expect(LocaleFormatters.tenths(1.25) == 12)
        #expect(LocaleFormatters.tenths(0.05) == 0)
        #expect(LocaleFormatters.tenths(0.04999) == 0)
        #expect(LocaleFormatters.tenths(-0.1) == nil)
        #expect(LocaleFormatters.tenths(.nan) == nil)
    }

    @Test(arguments: [
        (Int64(804_672), SupportedLocale.enUS, "500.0 mi"), (804_000, .enUS, "499.6 mi"),
        (500_000, .deDE, "500,0 km"), (499_949, .deDE, "499,9 km"), (499_950, .frFR, "500,0\u{00A0}km"),
        (1_609_344_000, .enGB, "1,000,000.0 mi"), (-1500, .esES, "-1,5 km"),
    ])
    func distancesAtAndPastTheTableEdge(meters: Int64, locale: SupportedLocale, expected: String) throws {
        #expect(try display(TripFixture.trip(distanceMeters: meters), locale).distance == expected)
    }

    /// Every minute of a day, and days on both sides of the cached years and far outside them, as
    /// `DateFormatter` writes them.
    @Test(arguments: SupportedLocale.allCases)
    func datesAndTimesMatchTheFormatterInsideAndOutsideTheCachedYears(locale: SupportedLocale) throws {
        let dates = DateFormatter()
        dates.locale = locale.locale
        dates.timeZone = .gmt
        dates.dateStyle = .medium
        let times = DateFormatter()
        times.locale = locale.locale
        times.timeZone = .gmt
        times.timeStyle = .short
        var instants: [Date] = []
        let midnight = try TripFixture.instant("2026-07-14T00:00:00Z")
        instants += (0..<1440).map { midnight.addingTimeInterval(Double($0) * 60 + 59) }
        for day in ["1969-12-31", "1970-01-01", "1999-12-31", "2000-01-01", "2028-02-29", "2063-12-31", "2064-01-01"] {
            let start = try TripFixture.instant("\(day)T00:00:00Z")
            instants += [start, start.addingTimeInterval(86399), start.addingTimeInterval(-1)]
        }
        for far in ["1850-06-01T12:34:56Z", "1582-10-20T08:00:00Z", "2200-03-01T23:59:00Z", "3000-01-01T00:00:00Z"] {
            instants.append(try TripFixture.instant(far))
        }
        for instant in instants {
            let shown = try display(TripFixture.trip(requestedAt: instant.formatted(.iso8601)), locale, in: "UTC")
            #expect(shown.date == dates.string(from: instant), "\(instant)")
            #expect(shown.time == times.string(from: instant), "\(instant)")
        }
    }

    /// Every day of the cached years, in one locale, so the year boundaries of the tables are all crossed.
    @Test func everyCachedDayMatchesTheFormatter() throws {
        let dates = DateFormatter()
        dates.locale = SupportedLocale.frFR.locale
        dates.timeZone = .gmt
        dates.dateStyle = .medium
        let formatters = LocaleFormatters(.frFR)
        var instant = try TripFixture.instant("\(DayStrings.cachedYears.lowerBound - 1)-12-31T12:00:00Z")
        let end = try TripFixture.instant("\(DayStrings.cachedYears.upperBound)-01-01T12:00:00Z")
        while instant <= end {
            #expect(formatters.date(wallClock: instant) == dates.string(from: instant), "\(instant)")
            instant.addTimeInterval(86400)
        }
    }

    @Test func onlyYearsInTheWindowAreCached() throws {
        let formatters = LocaleFormatters(.deDE)
        let inside = try TripFixture.instant("2031-05-05T10:00:00Z")
        let outside = try TripFixture.instant("2090-05-05T10:00:00Z")
        let insideDay = Int(inside.timeIntervalSince1970) / 86400
        let outsideDay = Int(outside.timeIntervalSince1970) / 86400
        let days = DayStrings(style: Date.FormatStyle(timeZone: .gmt), calendar: Calendar(identifier: .gregorian))
        #expect(!days.isCached(day: insideDay))
        _ = days.string(forDay: insideDay)
        #expect(days.isCached(day: insideDay))
        _ = days.string(forDay: outsideDay)
        #expect(!days.isCached(day: outsideDay))
        #expect(formatters.date(wallClock: inside) == "05.05.2031")
        #expect(formatters.date(wallClock: outside) == "05.05.2090")
    }

    /// A zone whose offset before standard time had seconds in it (New York's local mean time, -4:56:02).
    @Test func localMeanTimeOffsetsMatchTheFormatter() throws {
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        let instant = try TripFixture.instant("1880-06-01T17:00:30Z")
        let times = DateFormatter()
        times.locale = SupportedLocale.enGB.locale
        times.timeZone = zone
        times.timeStyle = .short
        let dates = DateFormatter()
        dates.locale = SupportedLocale.enGB.locale
        dates.timeZone = zone
        dates.dateStyle = .medium
        let shown = try display(TripFixture.trip(requestedAt: "1880-06-01T17:00:30Z"), .enGB)
        #expect(shown.time == times.string(from: instant))
        #expect(shown.date == dates.string(from: instant))
    }

    /// The destination rule as it was written before the byte scan, kept as the specification.
    private static func referenceDestination(address: String, city: String) -> String {
        var parts: [String] = []
        for part in address.split(separator: ",") {
            let trimmed = part.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { continue }
            parts.append(trimmed)
            if trimmed.contains(where: \.isLetter) { return parts.joined(separator: ", ") }
        }
        return parts.isEmpty ? city : parts.joined(separator: ", ")
    }

    @Test(arguments: [
        "東京都千代田区丸の内1丁目, 東京", "\u{3000}Friedrichstraße 43\u{00A0}, 10117 Berlin",
        "12\u{00A0}, 14, Rua A", ",\u{0301} Main St, Springfield", "1,\u{0301}2, Oak Ave", "\u{0600},5, Road",
        "\u{2003}\u{2003}, \u{00A0}", "\r\n17\r\n, \r\nElm St", "١٢, شارع", "5\u{200D}, 6, Av", "🇫🇷, Paris",
        "São Paulo - SP", "\u{0085}7,8\u{2028}",
        "", ",,,", "  ", "4, 5, 6",
    ])
    func destinationMatchesTheStringRule(address: String) throws {
        let trip = try TripFixture.trip(city: "Springfield", dropoffAddress: address)
        #expect(
            TripPresenter.destination(of: trip.details)
                == Self.referenceDestination(address: address, city: "Springfield")
        )
    }

    @Test func destinationMatchesTheStringRuleOnRandomAddresses() throws {
        let alphabet: [String] = [
            ",", ",", " ", " ", "1", "7", "a", "Z", "é", "e\u{0301}", "\u{0301}", "\u{00A0}", "\u{3000}", "\t",
            "\n", "\r\n", "東", "١", "\u{0600}", "\u{200D}", "🇫", "🏳️‍🌈", "\u{093F}", "-", ".", "\u{2028}", "\u{0085}",
        ]
        var generator = SplitMix(seed: 42)
        for _ in 0..<5000 {
            let length = Int(generator.next() % 12)
            let address = (0..<length).map { _ in
                alphabet[Int(generator.next() % UInt64(alphabet.count))]
            }.joined()
            let trip = try TripFixture.trip(city: "Springfield", dropoffAddress: address)
            #expect(
                TripPresenter.destination(of: trip.details)
                    == Self.referenceDestination(address: address, city: "Springfield"),
                "\(address.unicodeScalars.map { String($0.value, radix: 16) })"
            )
        }
    }
}

/// A small seeded generator (SplitMix64), so random cases are the same on every run; the target's one.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
