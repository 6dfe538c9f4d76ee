import TripHistoryDomain

/// The cursors of a list page's neighbours, encoded for the page's scope, and the `Link` header that points
/// to them.
struct PageCursors {
    /// The cursor of the page of older trips; nil when nothing older matches.
    let next: String?
    /// The cursor of the page of newer trips; nil on the first page.
    let previous: String?

    init(_ page: TripPage, scope: CursorScope, codec: CursorCodec) {
        next = page.next.map { codec.encode($0, scope: scope) }
        previous = page.previous.map { codec.encode($0, scope: scope) }
    }

    /// The RFC 8288 `Link` value, `rel="next"` then `rel="prev"`, with `url` giving a neighbour's URL from its
    /// cursor; nil when there is neither.
    func link(url: (String) -> String) -> String? {
        var links: [String] = []
        for (cursor, relation) in [(next, "next"), (previous, "prev")] {
            guard let cursor else { continue }
            links.append("<\(url(cursor))>; rel=\"\(relation)\"")
        }
        return links.isEmpty ? nil : links.joined(separator: ", ")
    }
}
