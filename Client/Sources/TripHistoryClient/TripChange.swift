/// One entry of a rider's changes feed, in the order the service lists them (oldest first).
public enum TripChange: Sendable, Hashable {
    /// The trip was recorded or adjusted: the trip as a list row serves it, with its new `version`.
    case upsert(Trip)
    /// The trip no longer exists: drop the copy with this id.
    case erased(id: String)

    /// The id of the trip the change is about.
    public var tripID: String {
        switch self {
        case .upsert(let trip): trip.id
        case .erased(let id): id
        }
    }
}
