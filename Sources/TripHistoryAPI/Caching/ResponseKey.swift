import Foundation
import TripHistoryDomain
import TripHistoryPresentation

/// Cache keys of the rider routes. A key names everything the body depends on — route, the caller's view,
/// rider, normalized filter, limit, validated cursor, display zone, negotiated locale and representation —
/// so two requests share an entry only when they would get the same bytes. Every component is validated or
/// normalized before it gets here, and none can contain the separator.
enum ResponseKey {
    private static let separator = "\u{1F}"

    /// The caller's view of a rider it may read: `r` for the rider themself, `a` for an analyst. The view is
    /// part of the key so a rider's and an analyst's responses never share an entry, even if their bytes are
    /// the same today. Services and the privacy role cannot read, so they
    /// never reach a lookup.
    static func view(of caller: Caller) -> String {
        switch caller {
        case .rider: return "r"
        case .analyst: return "a"
        case .service: return "s"
        case .privacy: return "p"
        }
    }

    static func list(
        view: String, riderID: RiderID, parameters: TripListParameters, locale: SupportedLocale
    ) -> String {
        let filter = parameters.filter
        // Appended into one string rather than joined from an array: a key is built on every read.
        var key = "list"
        key.reserveCapacity(64 + (parameters.cursor?.utf8.count ?? 0))
        func append(_ component: String) {
            key += separator
            key += component
        }
        append(view)
        append(riderID.description)
        append(String(parameters.limit.value))
        append(filter.range.from.map { String(Timestamp.micros($0)) } ?? "")
        append(filter.range.to.map { String(Timestamp.micros($0)) } ?? "")
        append(filter.status?.rawValue ?? "")
        append(parameters.displayTimeZone?.identifier ?? "")
        append(parameters.count?.rawValue ?? "")
        append(locale.identifier)
        key += separator
        if let cursor = parameters.cursor { key.append(contentsOf: cursor) }
        return key
    }

    static func detail(
        view: String, riderID: RiderID, tripID: TripID, timeZone: TimeZone?, locale: SupportedLocale
    ) -> String {
        ["trip", view, riderID.description, tripID.description, timeZone?.identifier ?? "", locale.identifier]
            .joined(separator: separator)
    }

    /// A receipt's key is its trip's, in its own namespace, with the negotiated representation.
    static func receipt(
        view: String, riderID: RiderID, tripID: TripID, timeZone: TimeZone?, locale: SupportedLocale,
        format: ReceiptFormat
    ) -> String {
        "receipt" + separator + format.mediaType + separator
            + detail(view: view, riderID: riderID, tripID: tripID, timeZone: timeZone, locale: locale)
    }

    static func changes(view: String, riderID: RiderID, since: String?, limit: Int, locale: SupportedLocale) -> String {
        // "-" for no token, "=" before a token: an empty `since` never shares the key of a read without one.
        ["changes", view, riderID.description, String(limit), locale.identifier, since.map { "=" + $0 } ?? "-"]
            .joined(separator: separator)
    }
}
