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
        ("0000-01-01T00:00:00Z", "0000-01-01T00:00:00Z"),
        ("0000-01-01T01:00:00+01:00", "0000-01-01T00:00:00Z"),
        ("9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z"),
        ("9999-12-31T18:59:58.5-05:00", "9999-12-31T23:59:58.500Z"),
        ("2026-03-01T08:00:00 01:00", "2026-03-01T07:00:00Z"),
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
        #expect(RFC3339.format(start) == "0000-01-01T00:00:00Z")
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
}
