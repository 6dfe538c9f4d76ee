import Hummingbird
import TripHistoryAPI
import TripHistoryDomain

/// The handlers of the route table (`APIOperation`): each hands the request head (and, for a write, its body)
/// to the API module, which parses, checks and answers it. Every operation is registered from the table, and
/// every other method on its path gets 405 with the table's methods in `Allow`.
struct APIRoutes<Repository: TripRepository, AnalystRepository: AnalystTripRepository>: Sendable {
    typealias Context = TripHistoryRequestContext
    typealias Handler = @Sendable (Request, Context) async throws -> Response

    let riderTrips: RiderTrips<Repository>
    let riderErasures: RiderErasures<Repository>
    let riderExports: RiderExports<Repository>
    let analystTrips: AnalystTrips<AnalystRepository>
    let operational: OperationalRoutes

    func register(on router: Router<Context>) {
        for operation in APIOperation.allCases {
            router.on(RouterPath(operation.routerPattern), method: operation.method, use: handler(for: operation))
        }
        for (path, allowed) in APIOperation.methodsByPath {
            router.rejectOtherMethods(RouterPath(APIOperation.routerPattern(path)), allowed: allowed)
        }
    }

    /// What answers `operation`.
    private func handler(for operation: APIOperation) -> Handler {
        switch operation {
        case .listRiderTrips:
            return { request, context in
                Response(
                    try await riderTrips.list(riderID: context.parameters.get("rider_id")?[...], head: request.head))
            }
        case .getRiderTrip:
            return { request, context in
                Response(
                    try await riderTrips.detail(
                        riderID: context.parameters.get("rider_id")?[...],
                        tripID: context.parameters.get("trip_id")?[...], head: request.head))
            }
        case .getTripReceipt:
            return { request, context in
                Response(
                    try await riderTrips.receipt(
                        riderID: context.parameters.get("rider_id")?[...],
                        tripID: context.parameters.get("trip_id")?[...], head: request.head))
            }
        case .listRiderTripChanges:
            return { request, context in
                Response(
                    try await riderTrips.changes(riderID: context.parameters.get("rider_id")?[...], head: request.head))
            }
        case .recordAdjustment:
            return { request, context in
                var request = request
                return Response(
                    try await riderTrips.adjust(
                        riderID: context.parameters.get("rider_id")?[...],
                        tripID: context.parameters.get("trip_id")?[...], head: request.head
                    ) { try await request.collectBody(upTo: TripRoutesLimits.maximumBodyBytes) })
            }
        case .recordTrip:
            return { request, _ in
                var request = request
                return Response(
                    try await riderTrips.record(head: request.head) {
                        try await request.collectBody(upTo: TripRoutesLimits.maximumBodyBytes)
                    })
            }
        case .exportRiderTrips:
            return { request, context in
                Response(
                    try await riderExports.export(
                        riderID: context.parameters.get("rider_id")?[...], head: request.head, logger: context.logger))
            }
        case .eraseRider:
            return { request, context in
                Response(
                    try await riderErasures.erase(riderID: context.parameters.get("rider_id")?[...], head: request.head)
                )
            }
        case .listTrips:
            return { request, context in
                Response(try await analystTrips.list(head: request.head, logger: context.logger))
            }
        case .exportTrips:
            return { request, context in
                Response(try await analystTrips.export(head: request.head, logger: context.logger))
            }
        case .tripStats:
            return { request, _ in Response(try await analystTrips.stats(head: request.head)) }
        case .listTripChanges:
            return { request, _ in Response(try await analystTrips.changes(head: request.head)) }
        case .health:
            return { _, _ in Response(OperationalRoutes.alive) }
        case .readiness:
            return { _, _ in try await operational.readiness() }
        case .openAPIDocument:
            return { _, _ in operational.document() }
        }
    }
}
