import Foundation
import TripHistoryDomain

/// The filter shared by every analyst request (list, exports, stats), checked and normalized. Every
/// rejection names its parameter. Bounds and `tz` follow the rider list: an RFC 3339 timestamp with an
/// offset, or a date meaning its midnight in `tz` (UTC when absent).
struct AnalystQueryParameters {
    static let names = ["from", "to", "tz", "status", "city", "product", "rider_id"]

    let filter: AnalystTripFilter
    /// The zone of `tz`: date-only bounds, display strings, and stats periods; nil when absent.
    let timeZone: TimeZone?

    static func parse(
        _ query: QueryParameters, limits: AnalystQueryLimits
    ) throws(Problem) -> AnalystQueryParameters {
        try TripListParameters.rejectRepeated(names, in: query)
        let timeZone = try TripListParameters.parseTimeZone(query["tz"])
        guard let fromText = query["from"] else {
            throw Problem.invalidParameter("from", "from is required: analyst queries always name their window.")
        }
        guard let toText = query["to"] else {
            throw Problem.invalidParameter("to", "to is required: analyst queries always name their window.")
        }
        let from = try TripListParameters.parseBound(fromText, name: "from", timeZone)
        let to = try TripListParameters.parseBound(toText, name: "to", timeZone)
        let range: DateRange
        do {
            range = try DateRange(from: from, to: to)
        } catch {
            throw Problem.invalidParameter("from", "from must be earlier than to.")
        }
        let riderID = try query["rider_id"].map { text throws(Problem) in
            guard let id = RiderID(text) else {
                throw Problem.invalidParameter("rider_id", "rider_id must be a positive integer written in decimal.")
            }
            return id
        }
        let status = try TripListParameters.parseStatus(query["status"])
        let city = try text(query["city"], name: "city")
        let product = try text(query["product"], name: "product")
        let filter: AnalystTripFilter
        do throws(ValidationError) {
            filter = try AnalystTripFilter(range: range, status: status, city: city, product: product, riderID: riderID)
            try limits.check(filter)
        } catch {
            throw Problem.invalidParameter(error.field, "\(error.field) \(error.reason).")
        }
        return AnalystQueryParameters(filter: filter, timeZone: timeZone)
    }

    /// A free-text equality filter, compared exactly as recorded: 1 to 512 bytes without NUL, like the field.
    private static func text(_ value: Substring?, name: String) throws(Problem) -> String? {
        guard let value else { return nil }
        guard !value.isEmpty, value.utf8.count <= NewTrip.maximumTextBytes,
            !value.unicodeScalars.contains(where: { $0.value == 0 })
        else {
            throw Problem.invalidParameter(
                name, "\(name) must be 1 to \(NewTrip.maximumTextBytes) bytes without NUL characters."
            )
        }
        return String(value)
    }

    /// The normalized filter as query items, for links to neighbouring pages.
    var queryItems: [String] {
        var items = ["from=\(RFC3339.format(filter.from))", "to=\(RFC3339.format(filter.to))"]
        if let timeZone { items.append("tz=\(QueryEncoding.escape(timeZone.identifier))") }
        if let status = filter.status { items.append("status=\(status.rawValue)") }
        if let city = filter.city { items.append("city=\(QueryEncoding.escape(city))") }
        if let product = filter.product { items.append("product=\(QueryEncoding.escape(product))") }
        if let riderID = filter.riderID { items.append("rider_id=\(riderID)") }
        return items
    }

    /// Writes the normalized filter as the `filter` member of a response.
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("from", RFC3339.format(filter.from))
        writer.field("to", RFC3339.format(filter.to))
        writer.field("tz", timeZone?.identifier)
        writer.field("status", filter.status?.rawValue)
        writer.field("city", filter.city)
        writer.field("product", filter.product)
        writer.field("rider_id", filter.riderID?.description)
        writer.endObject()
    }
}
