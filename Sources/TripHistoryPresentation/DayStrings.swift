import Foundation

/// One locale's medium-style date strings by civil day (days since 1970-01-01 in GMT), formatted a year
/// at a time on first use and read without locking afterwards.
///
/// Trips cluster in a few recent years, so formatting a year's 365 strings once (about half a millisecond)
/// replaces an ICU call per trip. Each year's table is published through a `PublishedOnce`: a
/// thread that loses the race to publish drops its own copy and reads the winner's. Only the years in
/// `cachedYears` get a table, which bounds the memory at about 6 KiB per year seen per locale (the strings
/// are short enough to be stored inline); days outside them are formatted on every call.
final class DayStrings: Sendable {
    /// Years whose days are cached once seen.
    static let cachedYears = 2000..<2064

    private let style: Date.FormatStyle
    /// `yearStarts[i]` is the day number of 1 January of `cachedYears.lowerBound + i`; one entry more than
    /// there are years, so the last one closes the window.
    private let yearStarts: [Int]
    private let slots: [Slot]

    /// `style` must format in GMT with the Gregorian `calendar`, whose days are the day numbers used here.
    init(style: Date.FormatStyle, calendar: Calendar) {
        self.style = style
        yearStarts = (Self.cachedYears.lowerBound...Self.cachedYears.upperBound).map { year in
            let start = calendar.date(from: DateComponents(year: year, month: 1, day: 1))!
            return Int(start.timeIntervalSince1970) / 86400
        }
        slots = Self.cachedYears.map { _ in Slot() }
    }

    /// The date of civil day `day`.
    func string(forDay day: Int) -> String {
        guard let first = yearStarts.first, let end = yearStarts.last, day >= first, day < end else {
            return format(day: day)
        }
        // Four centuries have exactly 146,097 days, so this lands on the year or the one after it.
        var index = (day - first) * 400 / 146_097
        while yearStarts[index] > day { index -= 1 }
        while yearStarts[index + 1] <= day { index += 1 }
        let table =
            slots[index].table.load()
            ?? slots[index].table.storeIfNil(
                YearTable(strings: (yearStarts[index]..<yearStarts[index + 1]).map(format(day:)))
            )
        return table.strings[day - yearStarts[index]]
    }

    private func format(day: Int) -> String {
        Date(timeIntervalSince1970: Double(day) * 86400).formatted(style)
    }

    /// Whether the table of the year containing `day` has been built; for tests.
    func isCached(day: Int) -> Bool {
        guard let index = yearStarts.lastIndex(where: { $0 <= day }), index < slots.count else { return false }
        return slots[index].table.load() != nil
    }

    private final class Slot: Sendable {
        let table = PublishedOnce<YearTable>()
    }

    private final class YearTable: Sendable {
        let strings: [String]

        init(strings: [String]) {
            self.strings = strings
        }
    }
}
