import Foundation
import Testing

@testable import TripHistoryPresentation

@Suite struct ZoneOffsetsTests {
    /// For every zone the host knows: the second before, at and after each of its transitions in the window,
    /// the window's edges, and seeded random instants, as ICU answers them.
    @Test func everyZoneMatchesICUAroundEveryTransition() throws {
        let window = ZoneOffsets.window
        var random = SplitMix(seed: 7)
        var compared = 0
        for identifier in TimeZone.knownTimeZoneIdentifiers {
            let zone = try #require(TimeZone(identifier: identifier))
            let offsets = ZoneOffsets(zone)
            var instants = [window.lowerBound, window.lowerBound + 1, window.upperBound - 1]
            var transition = Date(timeIntervalSince1970: window.lowerBound)
            while let next = zone.nextDaylightSavingTimeTransition(after: transition),
                next.timeIntervalSince1970 < window.upperBound
            {
                let seconds = next.timeIntervalSince1970
                instants += [seconds - 1, seconds - 0.000_001, seconds, seconds + 1]
                transition = next
            }
            for _ in 0..<200 {
                instants.append(Double.random(in: window, using: &random))
            }
            for seconds in instants {
                let date = Date(timeIntervalSince1970: seconds)
                #expect(offsets.secondsFromGMT(for: date) == zone.secondsFromGMT(for: date), "\(identifier) \(date)")
                compared += 1
            }
        }
        // Several hundred zones, each with its transitions: guards against a host without zone data.
        #expect(compared > 100_000)
    }

    /// The table covers the years the date strings are cached for, 2000 to 2063.
    @Test func theWindowIsTheCachedYears() throws {
        let start = try TripFixture.instant("2000-01-01T00:00:00Z").timeIntervalSince1970
        let end = try TripFixture.instant("2064-01-01T00:00:00Z").timeIntervalSince1970
        #expect(ZoneOffsets.window == start..<end)
    }

    /// Instants outside the table (and NaN) are ICU's answers too; New York's local mean time before 1883
    /// is -4:56:02.
    @Test(arguments: [
        -2_000_000_000.0, 0, ZoneOffsets.window.lowerBound - 1, ZoneOffsets.window.upperBound,
        ZoneOffsets.window.upperBound + 86400 * 365 * 100, -.infinity, .infinity, .nan,
    ])
    func instantsOutsideTheWindowGoToICU(seconds: Double) throws {
        for identifier in ["America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Europe/Dublin", "UTC"] {
            let zone = try #require(TimeZone(identifier: identifier))
            let date = Date(timeIntervalSince1970: seconds)
            #expect(ZoneOffsets(zone).secondsFromGMT(for: date) == zone.secondsFromGMT(for: date), "\(identifier)")
        }
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        #expect(ZoneOffsets(newYork).secondsFromGMT(for: Date(timeIntervalSince1970: -2_800_000_000)) == -17762)
    }

    /// Daylight saving seen through the table: half-hour shifts (Lord Howe), a negative summer offset
    /// (Dublin's winter time is its "daylight" one) and a rule change (Samoa skipped 2011-12-30).
    @Test(arguments: [
        ("Australia/Lord_Howe", "2026-01-15T00:00:00Z", 39600), ("Australia/Lord_Howe", "2026-07-15T00:00:00Z", 37800),
        ("Europe/Dublin", "2026-01-15T00:00:00Z", 0), ("Europe/Dublin", "2026-07-15T00:00:00Z", 3600),
        ("Pacific/Apia", "2011-12-30T09:59:59Z", -36000), ("Pacific/Apia", "2011-12-30T10:00:00Z", 50400),
    ])
    func knownOffsets(identifier: String, instant: String, expected: Int) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        let date = try #require(try? Date(instant, strategy: .iso8601))
        #expect(ZoneOffsets(zone).secondsFromGMT(for: date) == expected)
    }
}
