/// The paths of the cacheable rider reads answered before the router, as `TripRoutes` registers them:
/// `/v1/riders/{rider_id}/trips`, `/v1/riders/{rider_id}/trips/{trip_id}` and the changes feed
/// `/v1/riders/{rider_id}/trips/changes`. The ids are left as text for the routes' own checks; any other shape
/// (extra or empty segments, other prefixes) is not a rider read here and goes to the router.
public enum RiderReadPath: Equatable, Sendable {
    case list(riderID: Substring)
    case detail(riderID: Substring, tripID: Substring)
    case changes(riderID: Substring)

    /// The route patterns, as the request metrics name them.
    public static let listRoute = "/v1/riders/{rider_id}/trips"
    public static let detailRoute = "/v1/riders/{rider_id}/trips/{trip_id}"
    public static let changesRoute = "/v1/riders/{rider_id}/trips/changes"

    /// The read a request path (without its query) names; nil for any other path.
    public init?(_ path: Substring) {
        let segments = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard segments.count == 5 || segments.count == 6, segments[0].isEmpty,
            segments[1].elementsEqual("v1".utf8), segments[2].elementsEqual("riders".utf8),
            segments[4].elementsEqual("trips".utf8), !segments[3].isEmpty
        else { return nil }
        let riderID = Substring(segments[3])
        if segments.count == 5 {
            self = .list(riderID: riderID)
        } else {
            guard !segments[5].isEmpty else { return nil }
            // The router matches the fixed segment before the parameter, and so does this.
            // The export streams, so only the router answers it.
            if segments[5].elementsEqual("export".utf8) { return nil }
            if segments[5].elementsEqual("changes".utf8) {
                self = .changes(riderID: riderID)
            } else {
                self = .detail(riderID: riderID, tripID: Substring(segments[5]))
            }
        }
    }

    /// The route pattern of this read.
    public var route: String {
        switch self {
        case .list: return Self.listRoute
        case .detail: return Self.detailRoute
        case .changes: return Self.changesRoute
        }
    }
}
