import TripHistoryAPI

/// The API's path templates, as `openapi.yaml` writes them. The router's routes, the early-read handler's
/// matches and the request metrics' route labels all come from here.
enum APIPaths {
    static let riderTrips = "/v1/riders/{rider_id}/trips"
    static let riderTrip = "/v1/riders/{rider_id}/trips/{trip_id}"
    static let riderTripReceipt = "/v1/riders/{rider_id}/trips/{trip_id}/receipt"
    static let riderTripAdjustments = "/v1/riders/{rider_id}/trips/{trip_id}/adjustments"
    static let riderTripChanges = "/v1/riders/{rider_id}/trips/changes"
    static let riderExport = "/v1/riders/{rider_id}/trips/export"
    static let rider = "/v1/riders/{rider_id}"
    static let trips = "/v1/trips"
    static let tripStats = "/v1/trips/stats"
    static let tripChanges = "/v1/trips/changes"

    /// The rider read a request path (without its query) names, with its route template: the early-read
    /// handler's match of the router's rider read routes. The ids are left as text for the API's own checks;
    /// any other shape (extra or empty segments, other prefixes, the streamed export) is nil and goes to the
    /// router.
    static func riderRead(_ path: Substring) -> (route: String, read: RiderRead)? {
        let segments = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard segments.count == 5 || segments.count == 6, segments[0].isEmpty,
            segments[1].elementsEqual("v1".utf8), segments[2].elementsEqual("riders".utf8),
            segments[4].elementsEqual("trips".utf8), !segments[3].isEmpty
        else { return nil }
        let riderID = Substring(segments[3])
        guard segments.count == 6 else { return (riderTrips, .list(riderID: riderID)) }
        guard !segments[5].isEmpty else { return nil }
        // The router matches the fixed segments before the parameter, and so does this. The export streams, so
        // only the router answers it.
        if segments[5].elementsEqual("export".utf8) { return nil }
        if segments[5].elementsEqual("changes".utf8) { return (riderTripChanges, .changes(riderID: riderID)) }
        return (riderTrip, .detail(riderID: riderID, tripID: Substring(segments[5])))
    }
}
