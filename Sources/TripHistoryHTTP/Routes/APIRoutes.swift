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

    func register(on router: Router<Context>) {
        router.get(RouterPath(APIPaths.riderTrips.routerPattern)) { request, context in
            Response(try await riderTrips.list(riderID: context.parameters.get("rider_id")?[...], head: request.head))
        }
        router.get(RouterPath(APIPaths.riderTrip.routerPattern)) { request, context in
            Response(
                try await riderTrips.detail(
                    riderID: context.parameters.get("rider_id")?[...], tripID: context.parameters.get("trip_id")?[...],
                    head: request.head
                )
            )
        }
        router.get(RouterPath(APIPaths.riderTripReceipt.routerPattern)) { request, context in
            Response(
                try await riderTrips.receipt(
                    riderID: context.parameters.get("rider_id")?[...], tripID: context.parameters.get("trip_id")?[...],
                    head: request.head
                )
            )
        }
        router.get(RouterPath(APIPaths.riderTripChanges.routerPattern)) { request, context in
            Response(
                try await riderTrips.changes(riderID: context.parameters.get("rider_id")?[...], head: request.head))
        }
        router.post(RouterPath(APIPaths.riderTripAdjustments.routerPattern)) { request, context in
            var request = request
            return Response(
                try await riderTrips.adjust(
                    riderID: context.parameters.get("rider_id")?[...], tripID: context.parameters.get("trip_id")?[...],
                    head: request.head
                ) { try await request.collectBody(upTo: TripRoutesLimits.maximumBodyBytes) }
            )
        }
        router.post(RouterPath(APIPaths.trips.routerPattern)) { request, _ in
            var request = request
            return Response(
                try await riderTrips.record(head: request.head) {
                    try await request.collectBody(upTo: TripRoutesLimits.maximumBodyBytes)
                }
            )
        }
        router.get(RouterPath(APIPaths.riderExport.routerPattern)) { request, context in
            Response(
                try await riderExports.export(
                    riderID: context.parameters.get("rider_id")?[...], head: request.head, logger: context.logger))
        }
        router.delete(RouterPath(APIPaths.rider.routerPattern)) { request, context in
            Response(
                try await riderErasures.erase(riderID: context.parameters.get("rider_id")?[...], head: request.head))
        }
        router.get(RouterPath(APIPaths.trips.routerPattern)) { request, context in
            Response(try await analystTrips.list(head: request.head, logger: context.logger))
        }
        router.get(RouterPath(APIPaths.tripStats.routerPattern)) { request, _ in
            Response(try await analystTrips.stats(head: request.head))
        }
        router.get(RouterPath(APIPaths.tripChanges.routerPattern)) { request, _ in
            Response(try await analystTrips.changes(head: request.head))
        }
        router.rejectOtherMethods(RouterPath(APIPaths.riderTrips.routerPattern), allowed: [.get])
        router.rejectOtherMethods(RouterPath(APIPaths.riderTrip.routerPattern), allowed: [.get])
        router.rejectOtherMethods(RouterPath(APIPaths.riderTripReceipt.routerPattern), allowed: [.get])
        router.rejectOtherMethods(RouterPath(APIPaths.riderTripChanges.routerPattern), allowed: [.get])
        router.rejectOtherMethods(RouterPath(APIPaths.riderTripAdjustments.routerPattern), allowed: [.post])
        router.rejectOtherMethods(RouterPath(APIPaths.riderExport.routerPattern), allowed: [.get])
        router.rejectOtherMethods(RouterPath(APIPaths.rider.routerPattern), allowed: [.delete])
        router.rejectOtherMethods(RouterPath(APIPaths.trips.routerPattern), allowed: [.get, .post])
        router.rejectOtherMethods(RouterPath(APIPaths.tripStats.routerPattern), allowed: [.get])
        router.rejectOtherMethods(RouterPath(APIPaths.tripChanges.routerPattern), allowed: [.get])
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
