import TripHistoryAPI

/// The early-read handler's match of the route table's rider reads (`APIOperation`).
enum APIPaths {
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
        guard segments.count == 6 else { return (APIOperation.listRiderTrips.path, .list(riderID: riderID)) }
        guard !segments[5].isEmpty else { return nil }
        // The router matches the fixed segments before the parameter, and so does this. The export streams, so
        // only the router answers it.
        if segments[5].elementsEqual("export".utf8) { return nil }
        if segments[5].elementsEqual("changes".utf8) {
            return (APIOperation.listRiderTripChanges.path, .changes(riderID: riderID))
        }
        return (APIOperation.getRiderTrip.path, .detail(riderID: riderID, tripID: Substring(segments[5])))
    }
}
