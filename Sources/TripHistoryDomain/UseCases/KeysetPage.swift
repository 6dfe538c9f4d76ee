/// Turns the rows of a keyset read (one more than the page size) into a page and its neighbours' positions.
enum KeysetPage {
    /// `rows` are in the read direction; the page always comes back newest first.
    static func assemble(rows: [Trip], limit: Int, position: PagePosition?) -> TripPage {
        let overflow = rows.count > limit
        let pageRows = Array(rows.prefix(limit))
        switch position?.direction {
        case nil:
            return TripPage(trips: pageRows, next: overflow ? older(than: pageRows.last) : nil, previous: nil)
        case .older:
            // The caller came down from a newer page, so one exists above the first trip here.
            return TripPage(
                trips: pageRows,
                next: overflow ? older(than: pageRows.last) : nil,
                previous: newer(than: pageRows.first)
            )
        case .newer:
            let newestFirst = Array(pageRows.reversed())
            // The trip the position names is older than this whole page, so an older page exists.
            return TripPage(
                trips: newestFirst,
                next: older(than: newestFirst.last),
                previous: overflow ? newer(than: newestFirst.first) : nil
            )
        }
    }

    private static func older(than trip: Trip?) -> PagePosition? {
        trip.map { PagePosition(key: TripKey($0), direction: .older) }
    }

    private static func newer(than trip: Trip?) -> PagePosition? {
        trip.map { PagePosition(key: TripKey($0), direction: .newer) }
    }
}
