import TripHistoryDomain
import TripHistoryPresentation

extension JSONWriter {
    /// Writes a changes-feed page: `data` with each change (an upsert with its trip as a list row shows it, or
    /// an erasure with the trip's id), then `page` with `has_more` and `next_since`.
    mutating func changesPage<Position>(
        _ page: FeedPage<Position>, nextSince: String, display: (Trip) -> TripDisplay
    ) {
        beginObject()
        key("data")
        beginArray()
        for change in page.changes {
            beginObject()
            switch change {
            case .upsert(let trip):
                field("change", "upsert")
                key("trip")
                self.trip(trip, display: display(trip))
            case .erased(let id):
                field("change", "erased")
                key("id")
                quotedInt(id.rawValue)
            }
            endObject()
        }
        endArray()
        key("page")
        beginObject()
        field("has_more", page.hasMore)
        field("next_since", nextSince)
        endObject()
        endObject()
    }
}
