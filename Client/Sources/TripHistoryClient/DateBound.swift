import Foundation

/// One bound of a date range: a calendar day (midnight in the filter's time zone, UTC without one) or an
/// exact instant.
public struct DateBound: Sendable, Hashable, CustomStringConvertible {
    /// The bound as the API's `from`/`to` parameter spells it.
    public let text: String

    /// The start of a calendar day, `YYYY-MM-DD`; nil when `text` is not such a date.
    public static func day(_ text: String) -> DateBound? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else { return nil }
        return DateBound(text: text)
    }

    /// An exact instant, sent in UTC.
    public static func instant(_ date: Date) -> DateBound {
        DateBound(text: date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }

    /// A day (`2026-03-01`) or an RFC 3339 timestamp with an offset (`2026-03-01T08:00:00+01:00`); nil for
    /// anything else. The service checks the value again.
    public init?(_ text: String) {
        if let day = DateBound.day(text) {
            self = day
        } else if TripDates.parse(text) != nil {
            self.text = text
        } else {
            return nil
        }
    }

    private init(text: String) {
        self.text = text
    }

    /// The bound as sent.
    public var description: String { text }
}
