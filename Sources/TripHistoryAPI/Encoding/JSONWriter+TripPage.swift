import TripHistoryDomain
import TripHistoryPresentation

extension JSONWriter {
    /// Writes a whole list page object, the rider's and the analyst's alike: `data` with each trip and the
    /// display strings `display` gives it, `page` with `limit`, `has_more` and the neighbours' cursors, then
    /// `filter`, whose object `filter` writes.
    mutating func listPage(
        _ page: TripPage, limit: Int, cursors: PageCursors, display: (Trip) -> TripDisplay,
        filter: (inout JSONWriter) -> Void
    ) {
        beginObject()
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
        if let total = page.total {
            field("total", total.value)
            field("total_accuracy", total.accuracy.rawValue)
        }
        endObject()
        key("filter")
        filter(&self)
        endObject()
    }
}
