import TripHistoryDomain
import TripHistoryPresentation

extension JSONWriter {
    /// Writes the `data` and `page` members of a list page into the object being written: each trip with the
    /// display strings `display` gives it, then `limit`, `has_more` and the neighbours' cursors. The caller
    /// opens and closes the object and adds the members that differ between lists, such as `filter`.
    mutating func tripPage(_ page: TripPage, limit: Int, cursors: PageCursors, display: (Trip) -> TripDisplay) {
        key("data")
        beginArray()
        for trip in page.trips {
            self.trip(trip, display: display(trip))
        }
        endArray()
        key("page")
        beginObject()
        field("limit", limit)
        field("has_more", page.hasMore)
        field("next_cursor", cursors.next)
        field("prev_cursor", cursors.previous)
        endObject()
    }
}
