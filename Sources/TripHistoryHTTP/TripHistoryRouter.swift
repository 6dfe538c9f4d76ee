import Hummingbird
import TripHistoryAPI
import TripHistoryDomain

/// Builds the HTTP surface: request metrics outermost (counts and latency per route, method and status,
/// through whatever backend the process bootstrapped), then the problem middleware, so every response, the
/// router's own 404s included, gets a request id and errors become problems; then the routes, each a call
/// into the API module.
public func buildTripHistoryRouter<Repository: TripRepository, AnalystRepository: AnalystTripRepository>(
    riderTrips: RiderTrips<Repository>, analystTrips: AnalystTrips<AnalystRepository>,
    operationalRoutes: OperationalRoutes, metrics: RequestMetrics
) -> Router<TripHistoryRequestContext> {
    let router = Router(context: TripHistoryRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
    router.add(middleware: ProblemMiddleware())
    operationalRoutes.register(on: router)
    APIRoutes(riderTrips: riderTrips, analystTrips: analystTrips).register(on: router)
    return router
}
