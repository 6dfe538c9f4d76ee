public import HTTPTypes

/// Every operation `openapi.yaml` documents, by its `operationId`: the route table. The router's routes and
/// its 405 answers (`APIRoutes`), the early-read handler's match (`APIPaths.riderRead`), the cache's and the
/// metrics' route labels all come from here, and a test checks the table against the document both ways.
/// Adding an operation is a case here; the compiler then asks for its method, its path and its handler.
public enum APIOperation: String, CaseIterable, Sendable {
    case eraseRider
    case listRiderTrips
    case listRiderTripChanges
    case exportRiderTrips
    case getRiderTrip
    case getTripReceipt
    case recordAdjustment
    case listTrips
    case exportTrips
    case recordTrip
    case listTripChanges
    case tripStats
    case health
    case readiness
    case openAPIDocument

    /// The operation's method; `HEAD` is served wherever `GET` is.
    public var method: HTTPRequest.Method {
        switch self {
        case .eraseRider: .delete
        case .recordAdjustment, .recordTrip: .post
        case .listRiderTrips, .listRiderTripChanges, .exportRiderTrips, .getRiderTrip, .getTripReceipt, .listTrips,
            .exportTrips, .listTripChanges, .tripStats, .health, .readiness, .openAPIDocument:
            .get
        }
    }

    /// The operation's path template, as `openapi.yaml` writes it.
    public var path: String {
        switch self {
        case .eraseRider: "/v1/riders/{rider_id}"
        case .listRiderTrips: "/v1/riders/{rider_id}/trips"
        case .listRiderTripChanges: "/v1/riders/{rider_id}/trips/changes"
        case .exportRiderTrips: "/v1/riders/{rider_id}/trips/export"
        case .getRiderTrip: "/v1/riders/{rider_id}/trips/{trip_id}"
        case .getTripReceipt: "/v1/riders/{rider_id}/trips/{trip_id}/receipt"
        case .recordAdjustment: "/v1/riders/{rider_id}/trips/{trip_id}/adjustments"
        case .listTrips, .recordTrip: "/v1/trips"
        case .exportTrips: "/v1/trips/export"
        case .listTripChanges: "/v1/trips/changes"
        case .tripStats: "/v1/trips/stats"
        case .health: "/healthz"
        case .readiness: "/readyz"
        case .openAPIDocument: "/openapi.yaml"
        }
    }

    /// The methods served on each path, for the `Allow` header of the 405 every other method gets.
    static var methodsByPath: [String: [HTTPRequest.Method]] {
        Dictionary(grouping: allCases, by: \.path).mapValues { $0.map(\.method) }
    }

    /// The path in the router's syntax (`/v1/riders/:rider_id/trips`).
    var routerPattern: String { Self.routerPattern(path) }

    /// An OpenAPI path template as a Hummingbird route pattern.
    static func routerPattern(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.hasPrefix("{") && segment.hasSuffix("}") ? ":" + segment.dropFirst().dropLast() : segment
        }.joined(separator: "/")
    }
}
