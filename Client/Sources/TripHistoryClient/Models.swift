import Foundation

/// A recorded trip as the service sends it; `display` holds the strings to show, already localized.
public typealias Trip = Components.Schemas.Trip
/// How a trip ended.
public typealias TripStatus = Components.Schemas.TripStatus

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

    public var description: String { text }
}

/// A request-time range: `from` inclusive, `to` exclusive; either may be open.
public struct TripDateRange: Sendable, Hashable {
    /// Trips requested at or after this bound.
    public var from: DateBound?
    /// Trips requested before this bound.
    public var to: DateBound?

    /// A range; nil bounds are open.
    public init(from: DateBound? = nil, to: DateBound? = nil) {
        self.from = from
        self.to = to
    }
}

/// The trips to list: a request-time range (`from` inclusive, `to` exclusive) and an outcome.
public struct TripFilter: Sendable, Hashable {
    /// Trips requested at or after this bound.
    public var from: DateBound?
    /// Trips requested before this bound.
    public var to: DateBound?
    /// Only trips that ended this way.
    public var status: TripStatus?
    /// The IANA zone of day bounds and of the display strings; without it each trip shows in its own zone.
    public var timeZone: String?
    /// Trips per page (1 to 100); the service's default (20) when nil.
    public var pageSize: Int?

    /// A filter; every part is optional.
    public init(
        from: DateBound? = nil, to: DateBound? = nil, status: TripStatus? = nil, timeZone: String? = nil,
        pageSize: Int? = nil
    ) {
        self.from = from
        self.to = to
        self.status = status
        self.timeZone = timeZone
        self.pageSize = pageSize
    }
}

/// One page of a rider's trips, newest first, with the cursors to its neighbours.
public struct TripListPage: Sendable, Hashable {
    /// The trips of the page, newest first.
    public var trips: [Trip]
    /// Leads to the page of older trips; nil at the end.
    public var nextCursor: String?
    /// Leads to the page of newer trips; nil on the first page.
    public var previousCursor: String?
    /// The response's entity tag, which a refresh of the first page sends back.
    public var etag: String?

    /// Creates a page.
    public init(trips: [Trip], nextCursor: String?, previousCursor: String?, etag: String?) {
        self.trips = trips
        self.nextCursor = nextCursor
        self.previousCursor = previousCursor
        self.etag = etag
    }

    /// Whether older trips remain.
    public var hasMore: Bool { nextCursor != nil }
}

/// The first page of a list, either fetched anew or confirmed unchanged by the service (`304`).
public struct FirstPage: Sendable, Hashable {
    /// The page to show.
    public var page: TripListPage
    /// False when the service answered `304 Not Modified` to the kept page's ETag: what the app shows is current.
    public var changed: Bool
}

/// Which way a walk over pages goes.
public enum PagingDirection: Sendable, Hashable {
    /// Towards older trips (`next_cursor`), the list's natural order.
    case older
    /// Towards newer trips (`prev_cursor`), back to the first page.
    case newer
}

/// The service's timestamps: RFC 3339, with or without fraction digits.
enum TripDates {
    static func parse(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle().parse(text))
            ?? (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
    }
}
