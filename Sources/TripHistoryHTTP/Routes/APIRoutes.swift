import Hummingbird
import TripHistoryAPI
import TripHistoryDomain

/// The handlers of the route table (`APIOperation`): each hands the request head (and, for a write, its body)
/// to the API module, which parses, checks and answers it. Every operation is registered from the table, and
/// every other method on its path gets 405 with the table's methods in `Allow`; the rider reads the table
/// answers early are answered by `earlyReads` too, through the same `RiderRead` and its route's cache.
struct APIRoutes<Repository: TripRepository, AnalystRepository: AnalystTripRepository>: Sendable {
    typealias Context = TripHistoryRequestContext
    typealias Handler = @Sendable (Request, Context) async throws -> Response

    /// What answers one operation: the router's handler and, for a rider read answered early, the early-read
    /// handler's answer.
    struct Route: Sendable {
        let handler: Handler
        let earlyAnswer: EarlyReadRoutes.Answer?

        init(handler: @escaping Handler, earlyAnswer: EarlyReadRoutes.Answer?) {
            self.handler = handler
            self.earlyAnswer = earlyAnswer
        }

        /// A route only the router answers.
        init(_ handler: @escaping Handler) {
            self.init(handler: handler, earlyAnswer: nil)
        }
    }

    private let riderTrips: RiderTrips<Repository>
    private let riderErasures: RiderErasures<Repository>
    private let riderExports: RiderExports<Repository>
    private let analystTrips: AnalystTrips<AnalystRepository>
    private let operational: OperationalRoutes
    /// Each operation's route, made once in `init`: a rider read's cache counters serve both paths.
    private var routes: [APIOperation: Route] = [:]
    /// The early-read handler's match of the table, with the answers of the rider reads answered early.
    private(set) var earlyReads = EarlyReadRoutes(answers: [:])

    init(
        riderTrips: RiderTrips<Repository>, riderErasures: RiderErasures<Repository>,
        riderExports: RiderExports<Repository>, analystTrips: AnalystTrips<AnalystRepository>,
        operational: OperationalRoutes
    ) {
        self.riderTrips = riderTrips
        self.riderErasures = riderErasures
        self.riderExports = riderExports
        self.analystTrips = analystTrips
        self.operational = operational
        for operation in APIOperation.allCases { routes[operation] = route(for: operation) }
        earlyReads = EarlyReadRoutes(answers: routes.compactMapValues(\.earlyAnswer))
    }

    func register(on router: Router<Context>) {
        for operation in APIOperation.allCases {
            guard let route = routes[operation] else { continue }
            router.on(RouterPath(operation.routerPattern), method: operation.method, use: route.handler)
        }
        for (path, allowed) in APIOperation.methodsByPath {
            router.rejectOtherMethods(RouterPath(APIOperation.routerPattern(path)), allowed: allowed)
        }
    }

    /// A rider read's route: `Read` answered by `riderTrips`, cached and answered early as the table says.
    private func riderRead<Read: RiderRead>(_ read: Read.Type, _ operation: APIOperation) -> Route {
        let riderTrips = self.riderTrips
        let serving = operation.riderRead ?? []
        let route = riderTrips.route(read, cached: serving.contains(.cached), countedAs: operation.path)
        let takesTripID = operation.path.contains("{trip_id}")
        let handler: Handler = { request, context in
            let path = RiderReadPath(
                riderID: context.parameters.get("rider_id")?[...],
                tripID: takesTripID ? context.parameters.get("trip_id")?[...] : nil)
            return Response(try await riderTrips.answer(route, path: path, head: request.head))
        }
        guard serving.contains(.answeredEarly) else { return Route(handler: handler, earlyAnswer: nil) }
        return Route(handler: handler) { path, head in riderTrips.earlyAnswer(route, path: path, head: head) }
    }

    /// What answers `operation`: the table's handlers.
    private func route(for operation: APIOperation) -> Route {
        switch operation {
        case .listRiderTrips: return riderRead(TripListRead.self, operation)
        case .getRiderTrip: return riderRead(TripDetailRead.self, operation)
        case .getTripReceipt: return riderRead(TripReceiptRead.self, operation)
        case .listRiderTripChanges: return riderRead(TripChangesRead.self, operation)
        case .recordAdjustment:
            return Route { request, context in
                var request = request
                return Response(
                    try await riderTrips.adjust(
                        riderID: context.parameters.get("rider_id")?[...],
                        tripID: context.parameters.get("trip_id")?[...], head: request.head
                    ) { try await request.collectBody(upTo: TripRoutesLimits.maximumBodyBytes) })
            }
        case .recordTrip:
            return Route { request, _ in
                var request = request
                return Response(
                    try await riderTrips.record(head: request.head) {
                        try await request.collectBody(upTo: TripRoutesLimits.maximumBodyBytes)
                    })
            }
        case .exportRiderTrips:
            return Route { request, context in
                Response(
                    try await riderExports.export(
                        riderID: context.parameters.get("rider_id")?[...], head: request.head, logger: context.logger))
            }
        case .eraseRider:
            return Route { request, context in
                Response(
                    try await riderErasures.erase(riderID: context.parameters.get("rider_id")?[...], head: request.head)
                )
            }
        case .listTrips:
            return Route { request, context in
                Response(try await analystTrips.list(head: request.head, logger: context.logger))
            }
        case .exportTrips:
            return Route { request, context in
                Response(try await analystTrips.export(head: request.head, logger: context.logger))
            }
        case .tripStats:
            return Route { request, _ in Response(try await analystTrips.stats(head: request.head)) }
        case .listTripChanges:
            return Route { request, _ in Response(try await analystTrips.changes(head: request.head)) }
        case .health:
            return Route { _, _ in Response(OperationalRoutes.alive) }
        case .readiness:
            return Route { _, _ in try await operational.readiness() }
        case .openAPIDocument:
            return Route { _, _ in operational.document() }
        }
    }
}
