public import HTTPTypes

/// Every operation `openapi.yaml` documents, by its `operationId`: the route table. The router's routes and
/// its 405 answers (`APIRoutes`), the early-read handler's match (`EarlyReadRoutes`), which rider reads are
/// cached and answered early, the cache's and the metrics' route labels all come from here, and a test checks
/// the table against the document both ways. Adding an operation is a case here; the compiler then asks for
/// its entry (method, path and, for a rider read, how it is served) and its handler in `APIRoutes`.
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

    /// The operation's entry in the table: its method (`HEAD` is served wherever `GET` is), its path template
    /// as `openapi.yaml` writes it, and for a rider read how it is served; `APIRoutes` names its handler.
    var entry: Entry {
        switch self {
        case .eraseRider: Entry(.delete, "/v1/riders/{rider_id}")
        case .listRiderTrips: Entry(.get, "/v1/riders/{rider_id}/trips", riderRead: [.cached, .answeredEarly])
        case .listRiderTripChanges:
            Entry(.get, "/v1/riders/{rider_id}/trips/changes", riderRead: [.cached, .answeredEarly])
        case .exportRiderTrips: Entry(.get, "/v1/riders/{rider_id}/trips/export")
        case .getRiderTrip: Entry(.get, "/v1/riders/{rider_id}/trips/{trip_id}", riderRead: [.cached, .answeredEarly])
        case .getTripReceipt: Entry(.get, "/v1/riders/{rider_id}/trips/{trip_id}/receipt", riderRead: [.cached])
        case .recordAdjustment: Entry(.post, "/v1/riders/{rider_id}/trips/{trip_id}/adjustments")
        case .listTrips: Entry(.get, "/v1/trips")
        case .recordTrip: Entry(.post, "/v1/trips")
        case .exportTrips: Entry(.get, "/v1/trips/export")
        case .listTripChanges: Entry(.get, "/v1/trips/changes")
        case .tripStats: Entry(.get, "/v1/trips/stats")
        case .health: Entry(.get, "/healthz")
        case .readiness: Entry(.get, "/readyz")
        case .openAPIDocument: Entry(.get, "/openapi.yaml")
        }
    }

    /// The operation's method; `HEAD` is served wherever `GET` is.
    public var method: HTTPRequest.Method { entry.method }

    /// The operation's path template, as `openapi.yaml` writes it.
    public var path: String { entry.path }

    /// How the operation is served when it is a rider read (a `RiderRead` answered by `RiderTrips`); nil for
    /// every other operation.
    public var riderRead: RiderReadServing? { entry.riderRead }

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

    /// One row of the table.
    struct Entry {
        let method: HTTPRequest.Method
        let path: String
        let riderRead: RiderReadServing?

        init(_ method: HTTPRequest.Method, _ path: String, riderRead: RiderReadServing? = nil) {
            self.method = method
            self.path = path
            self.riderRead = riderRead
        }
    }
}

/// How a rider read is served: through the response cache or not, and answered by the early-read handler
/// before the router (a warm hit on the event loop, a miss computed without the router) or by the router only.
public struct RiderReadServing: OptionSet, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Responses are kept in the response cache, when there is one, under the read's key.
    public static let cached = RiderReadServing(rawValue: 1 << 0)
    /// The early-read handler answers the read when it can check it without waiting.
    public static let answeredEarly = RiderReadServing(rawValue: 1 << 1)
}
