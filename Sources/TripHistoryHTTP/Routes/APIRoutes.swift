import Hummingbird
import TripHistoryAPI
import TripHistoryDomain

/// The API's routes: each matches a path and hands the request head (and, for a recording, its body) to the
/// API module, which parses, checks and answers it. Other methods on the same paths get 405.
struct APIRoutes<Repository: TripRepository, AnalystRepository: AnalystTripRepository>: Sendable {
    typealias Context = TripHistoryRequestContext

    let riderTrips: RiderTrips<Repository>
    let riderErasures: RiderErasures<Repository>
    let riderExports: RiderExports<Repository>
    let analystTrips: AnalystTrips<AnalystRepository>

    /// The route pattern of a trip's adjustments.
    static var adjustmentsRoute: String { "/v1/riders/{rider_id}/trips/{trip_id}/adjustments" }

    func register(on router: Router<Context>) {
        router.get(RouterPath(RiderReadPath.listRoute.routerPattern)) { request, context in
            Response(try await riderTrips.list(riderID: context.parameters.get("rider_id")?[...], head: request.head))
        }
        router.get(RouterPath(RiderReadPath.detailRoute.routerPattern)) { request, context in
            Response(
                try await riderTrips.detail(
                    riderID: context.parameters.get("rider_id")?[...], tripID: context.parameters.get("trip_id")?[...],
                    head: request.head
                )
            )
        }
        router.get(RouterPath(RiderTrips<Repository>.receiptRoute.routerPattern)) { request, context in
            Response(
                try await riderTrips.receipt(
                    riderID: context.parameters.get("rider_id")?[...], tripID: context.parameters.get("trip_id")?[...],
                    head: request.head
                )
            )
        }
        router.get(RouterPath(RiderTrips<Repository>.changesRoute.routerPattern)) { request, context in
            Response(
                try await riderTrips.changes(riderID: context.parameters.get("rider_id")?[...], head: request.head))
        }
        router.post(RouterPath(Self.adjustmentsRoute.routerPattern)) { request, context in
            var request = request
            return Response(
                try await riderTrips.adjust(
                    riderID: context.parameters.get("rider_id")?[...], tripID: context.parameters.get("trip_id")?[...],
                    head: request.head
                ) { try await request.collectBody(upTo: TripRoutesLimits.maximumBodyBytes) }
            )
        }
        router.post("/v1/trips") { request, _ in
            var request = request
            return Response(
                try await riderTrips.record(head: request.head) {
                    try await request.collectBody(upTo: TripRoutesLimits.maximumBodyBytes)
                }
            )
        }
        router.get(RouterPath(RiderExports<Repository>.route.routerPattern)) { request, context in
            Response(
                try await riderExports.export(
                    riderID: context.parameters.get("rider_id")?[...], head: request.head, logger: context.logger))
        }
        router.delete(RouterPath(RiderErasures<Repository>.route.routerPattern)) { request, context in
            Response(
                try await riderErasures.erase(riderID: context.parameters.get("rider_id")?[...], head: request.head))
        }
        router.get("/v1/trips") { request, context in
            Response(try await analystTrips.list(head: request.head, logger: context.logger))
        }
        router.get("/v1/trips/stats") { request, _ in
            Response(try await analystTrips.stats(head: request.head))
        }
        router.get("/v1/trips/changes") { request, _ in
            Response(try await analystTrips.changes(head: request.head))
        }
        router.rejectOtherMethods(RouterPath(RiderReadPath.listRoute.routerPattern), allowed: [.get])
        router.rejectOtherMethods(RouterPath(RiderReadPath.detailRoute.routerPattern), allowed: [.get])
        router.rejectOtherMethods(RouterPath(RiderTrips<Repository>.receiptRoute.routerPattern), allowed: [.get])
        router.rejectOtherMethods(RouterPath(RiderTrips<Repository>.changesRoute.routerPattern), allowed: [.get])
        router.rejectOtherMethods(RouterPath(Self.adjustmentsRoute.routerPattern), allowed: [.post])
        router.rejectOtherMethods(RouterPath(RiderExports<Repository>.route.routerPattern), allowed: [.get])
        router.rejectOtherMethods(RouterPath(RiderErasures<Repository>.route.routerPattern), allowed: [.delete])
        router.rejectOtherMethods("/v1/trips", allowed: [.get, .post])
        router.rejectOtherMethods("/v1/trips/stats", allowed: [.get])
        router.rejectOtherMethods("/v1/trips/changes", allowed: [.get])
    }
}

extension String {
    /// An OpenAPI path template (`/v1/riders/{rider_id}/trips`) as a Hummingbird route (`/v1/riders/:rider_id/trips`).
    fileprivate var routerPattern: String {
        split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.hasPrefix("{") && segment.hasSuffix("}") ? ":" + segment.dropFirst().dropLast() : segment
        }.joined(separator: "/")
    }
}
