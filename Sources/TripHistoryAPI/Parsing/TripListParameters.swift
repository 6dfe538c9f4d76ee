import Foundation
import TripHistoryDomain

/// The query of a trip list request, checked and normalized. Every rejection names its parameter.
struct TripListParameters {
    let filter: TripFilter
    let limit: PageLimit
    let cursor: Substring?
    /// The zone of `tz`, used for date-only bounds and for display; nil shows each trip in its own zone.
    let displayTimeZone: TimeZone?
    /// How the page counts the trips the filter matches (`count`); nil counts nothing.
    let count: TripCountMode?

    /// The parameters of a rider's list.
    static let names = ["limit", "cursor", "from", "to", "tz", "status", "count"]

    static func parse(_ query: QueryParameters) throws(Problem) -> TripListParameters {
        try rejectRepeated(names, in: query)
        let timeZone = try parseTimeZone(query["tz"])
        let limit = try PageLimit.parse(query["limit"])
        let from = try query["from"].map { text throws(Problem) in try parseBound(text, name: "from", timeZone) }
        let to = try query["to"].map { text throws(Problem) in try parseBound(text, name: "to", timeZone) }
        let range: DateRange
        do {
            range = try DateRange(from: from, to: to)
        } catch {
            throw Problem.invalidParameter("from", "from must be earlier than to.")
        }
        let status = try parseStatus(query["status"])
        let cursor = query["cursor"]
        if let cursor, cursor.isEmpty {
            throw Problem.invalidParameter("cursor", "cursor must not be empty; omit it for the first page.")
        }
        return TripListParameters(
            filter: TripFilter(range: range, status: status), limit: limit, cursor: cursor,
            displayTimeZone: timeZone, count: try parseCount(query["count"])
        )
    }

    /// `exact` or `planned`, nil when absent.
    static func parseCount(_ text: Substring?) throws(Problem) -> TripCountMode? {
        guard let text else { return nil }
        guard let mode = TripCountMode(rawValue: String(text)) else {
            throw Problem.invalidParameter("count", "count must be one of: exact, planned.")
        }
        return mode
    }

    /// An IANA zone name; abbreviations and offsets such as `EST` or `GMT+1` are refused as ambiguous.
    static func parseTimeZone(_ text: Substring?) throws(Problem) -> TimeZone? {
        guard let text else { return nil }
        guard text.utf8.count <= 64, let zone = IANATimeZone.named(text) else {
            throw Problem.invalidParameter("tz", "tz must be an IANA time zone such as Europe/Paris.")
        }
        return zone
    }

    /// Refuses a request that repeats any of `names`, whose meaning would then be ambiguous.
    static func rejectRepeated(_ names: [String], in query: QueryParameters) throws(Problem) {
        // One pass over the query (it is read on every request, warm cache hits included), with the names seen
        // and repeated as bits rather than arrays; the problem names the first repeated parameter in `names`
        // order.
        precondition(names.count <= UInt64.bitWidth, "at most 64 names")
        var seen: UInt64 = 0
        var repeated: UInt64 = 0
        for (key, _) in query {
            guard let index = names.firstIndex(where: { QueryParameters.same(key, $0) }) else { continue }
            let bit: UInt64 = 1 << index
            if seen & bit != 0 { repeated |= bit } else { seen |= bit }
        }
        if repeated != 0 {
            let index = repeated.trailingZeroBitCount
            throw Problem.invalidParameter(names[index], "\(names[index]) must be given at most once.")
        }
    }

    /// A trip status, nil when absent.
    static func parseStatus(_ text: Substring?) throws(Problem) -> TripStatus? {
        guard let text else { return nil }
        guard let status = TripStatus(rawValue: String(text)) else {
            throw Problem.invalidParameter("status", "status must be one of: completed, canceled.")
        }
        return status
    }

    /// A bound is an RFC 3339 timestamp with an offset, or a date meaning its midnight in `timeZone` (UTC
    /// when absent).
    static func parseBound(_ text: Substring, name: String, _ timeZone: TimeZone?) throws(Problem) -> Date {
        if let date = RFC3339.parseDate(text),
            let start = RFC3339.startOfDay(date, in: timeZone ?? TimeZone(identifier: "UTC")!),
            RFC3339.isWritable(start)
        {
            return start
        }
        if let instant = RFC3339.parseTimestamp(text) {
            return instant
        }
        throw Problem.invalidParameter(
            name,
            "\(name) must be a date (YYYY-MM-DD) or an RFC 3339 timestamp with an offset, e.g. 2026-01-31T08:00:00Z."
        )
    }
}

extension TripListParameters {
    /// Writes the `filter` object a list page echoes: the bounds normalized to UTC, `tz` and `status`.
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("from", filter.range.from.map(RFC3339.format))
        writer.field("to", filter.range.to.map(RFC3339.format))
        writer.field("tz", displayTimeZone?.identifier)
        writer.field("status", filter.status?.rawValue)
        writer.endObject()
    }

    /// The list URL of a neighbouring page: the same normalized filter, with its cursor.
    func url(riderID: RiderID, cursor: String) -> String {
        var items = ["limit=\(limit.value)"]
        if let from = filter.range.from { items.append("from=\(RFC3339.format(from))") }
        if let to = filter.range.to { items.append("to=\(RFC3339.format(to))") }
        if let zone = displayTimeZone { items.append("tz=\(QueryEncoding.escape(zone.identifier))") }
        if let status = filter.status { items.append("status=\(status.rawValue)") }
        if let count { items.append("count=\(count.rawValue)") }
        items.append("cursor=\(cursor)")
        return "/v1/riders/\(riderID)/trips?" + items.joined(separator: "&")
    }
}
