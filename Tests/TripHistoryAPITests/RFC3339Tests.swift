import Foundation
import Testing
import TripHistoryDomain

@testable import TripHistoryAPI

/// The timestamp and date parsers against what `scripts/fuzz` checks: what parses formats and parses back to
/// the same instant. Each case below was, or stands next to, an input the fuzzer found.
@Suite struct RFC3339Tests {
    /// Found by the `timestamps` fuzz target: an offset moved these instants out of the years 0000...9999 in
    /// UTC, which `format` cannot write (it wrote a wrong year), so a list echoed a different bound than it
    /// applied. They are refused now, like any other malformed bound.
    @Test(arguments: [
        "9999-12-31T23:59:59-23:59", "9999-12-31T23:00:00-05:00", "9999-12-31t23:59:59.999999-00:01",
        "0000-01-01T00:00:00+00:01", "0000-01-01T00:59:59+01:00",
    ])
    func instantsOutsideFourDigitYearsAreRefused(text: String) {
        #expect(RFC3339.parseTimestamp(text) == nil)
    }

    @Test(arguments: [
        ("0000-01-01T00:00:00Z", "0000-01-01T00:00:00.000000Z"),
        ("0000-01-01T01:00:00+01:00", "0000-01-01T00:00:00.000000Z"),
        ("9999-12-31T23:59:59Z", "9999-12-31T23:59:59.000000Z"),
        ("9999-12-31T18:59:58.5-05:00", "9999-12-31T23:59:58.500000Z"),
        ("2026-03-01T08:00:00 01:00", "2026-03-01T07:00:00.000000Z"),
        ("2026-03-01T08:00:00.000001+01:00", "2026-03-01T07:00:00.000001Z"),
    ])
    func instantsAtTheEndsRoundTrip(text: String, formatted: String) throws {
        let instant = try #require(RFC3339.parseTimestamp(text))
        #expect(RFC3339.format(instant) == formatted)
        #expect(RFC3339.parseTimestamp(formatted) == instant)
    }

    /// A date bound starts at midnight in `tz`; east of UTC, 0000-01-01 starts in the year before.
    @Test func dateBoundsOutsideFourDigitYearsAreRefusedNamingTheParameter() throws {
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        #expect(throws: Problem.self) { try TripListParameters.parseBound("0000-01-01", name: "to", paris) }
        #expect(throws: Problem.self) {
            try TripListParameters.parseBound("9999-12-31T23:00:00-05:00", name: "from", nil)
        }
        let start = try TripListParameters.parseBound("0000-01-01", name: "from", nil)
        #expect(RFC3339.format(start) == "0000-01-01T00:00:00.000000Z")
    }

    /// Found by the conformance run (`from=0000-01-01` refused, then reasoned further): a date bound and the
    /// timestamp of its midnight are the same instant in every year, on the same proleptic calendar, also
    /// before 1582 (where Foundation's Gregorian calendar is Julian).
    @Test(arguments: ["0000-01-01", "0004-02-29", "1000-03-01", "1582-10-10", "1970-01-01", "9999-12-31"])
    func aDateBoundIsTheInstantOfItsMidnight(date: String) throws {
        let bound = try TripListParameters.parseBound(Substring(date), name: "from", nil)
        #expect(bound == RFC3339.parseTimestamp(date + "T00:00:00Z"))
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        // Before standard time (1888 in Japan) the zone used local mean time, not +09:00.
        if date >= "1970" {
            let local = try TripListParameters.parseBound(Substring(date), name: "from", tokyo)
            #expect(local == RFC3339.parseTimestamp(date + "T00:00:00+09:00"))
        }
    }

    /// Found by the `timestamps` fuzz target in CI: past 2^32 seconds (the year 2106) a `Double` of seconds
    /// has less than a microsecond to spare, and converting the whole interval at once rounded a microsecond
    /// away, so `2110-03-01t13:00:00.1z` formatted as another instant than it parsed to.
    @Test(arguments: [
        "2110-03-01t13:00:00.1z", "2110-03-01T13:00:00.000001Z", "2300-07-04T00:00:00.999999Z",
        "9998-12-31T23:59:59.123456Z", "0001-01-01T00:00:00.000001Z", "1969-12-31T23:59:59.999999Z",
    ])
    func instantsFormatAndParseBackToTheSameMicrosecond(_ text: String) throws {
        let instant = try #require(RFC3339.parseTimestamp(text))
        let again = try #require(RFC3339.parseTimestamp(RFC3339.format(instant)))
        #expect(Timestamp.micros(again) == Timestamp.micros(instant))
    }

    @Test func microsecondCountsOfTheStoreSurviveTheDateRoundTrip() {
        // Every count a four-digit year can hold, around the points where a Double's spacing passes 1 µs.
        for micros: Int64 in [
            4_294_967_296_000_001, 4_418_110_800_100_000, 8_589_934_592_999_999, -62_135_596_799_999_999, -1, 1,
        ] {
            let date = Timestamp.date(micros: micros)
            if abs(micros) < 8_589_934_592_000_000 {
                #expect(Timestamp.micros(date) == micros, "\(micros)")
            }
            #expect(Timestamp.micros(Timestamp.date(micros: Timestamp.micros(date))) == Timestamp.micros(date))
        }
    }
}
