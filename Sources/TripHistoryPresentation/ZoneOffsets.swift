import Foundation
import TripHistoryDomain

/// One time zone's offset from GMT at any instant, read from a table of the zone's transitions in the years
/// `DayStrings` caches (`window`, 2000 to 2063) instead of asking ICU on every call.
///
/// Why: `TimeZone.secondsFromGMT(for:)` locks the zone's ICU calendar on every call, and the presenter makes
/// one per trip (a cost that shows in profiles of the uncached page, `BENCHMARKS.md`, and a lock that
/// every thread showing trips of one zone shares). A zone's offset only changes at its transitions, daylight saving and
/// rule changes alike, which `nextDaylightSavingTimeTransition(after:)` lists: a few a year. They are
/// gathered on the zone's first use (at most a few hundred ICU calls) and published through a
/// `PublishedOnce`, as `DayStrings` publishes its years; a thread that loses the race drops its copy.
/// Instants outside the window, and NaN, go to ICU, so the answer is the same either way.
final class ZoneOffsets: Sendable {
    /// The instants (seconds since 1970) the table covers: from 1 January of the first year `DayStrings`
    /// caches up to 1 January after its last, GMT.
    static let window: Range<Double> = {
        let years = DayStrings.cachedYears
        func start(ofYear year: Int) -> Double {
            Double(CivilCalendar.days(year: Int64(year), month: 1, day: 1)) * 86_400
        }
        return start(ofYear: years.lowerBound)..<start(ofYear: years.upperBound)
    }()

    let zone: TimeZone
    private let table = PublishedOnce<Transitions>()
    /// `window`, kept per instance so the per-trip check does not go through the lazy global's guard.
    private let covered = ZoneOffsets.window

    init(_ zone: TimeZone) {
        self.zone = zone
    }

    /// What `zone.secondsFromGMT(for: date)` returns.
    func secondsFromGMT(for date: Date) -> Int {
        let seconds = date.timeIntervalSince1970
        guard covered.contains(seconds) else { return zone.secondsFromGMT(for: date) }
        let transitions = table.load() ?? table.storeIfNil(Transitions(zone, in: covered))
        return transitions.offset(at: seconds)
    }

    /// The offset in force at the window's start, then each transition inside it with the offset from then on.
    private final class Transitions: Sendable {
        /// Ascending; `starts[0]` is the window's start.
        let starts: [Double]
        let offsets: [Int]

        init(_ zone: TimeZone, in window: Range<Double>) {
            var instant = Date(timeIntervalSince1970: window.lowerBound)
            var starts = [window.lowerBound]
            var offsets = [zone.secondsFromGMT(for: instant)]
            while let next = zone.nextDaylightSavingTimeTransition(after: instant),
                next.timeIntervalSince1970 < window.upperBound
            {
                starts.append(next.timeIntervalSince1970)
                offsets.append(zone.secondsFromGMT(for: next))
                instant = next
            }
            self.starts = starts
            self.offsets = offsets
        }

        /// The offset of the last transition at or before `seconds`, which is inside the window.
        func offset(at seconds: Double) -> Int {
            // Binary search for the first start after `seconds`; the one before it is in force.
            var low = 1
            var high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= seconds { low = middle + 1 } else { high = middle }
            }
            return offsets[low - 1]
        }
    }
}
