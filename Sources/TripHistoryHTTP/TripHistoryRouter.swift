import Hummingbird
import TripHistoryDomain

/// Builds the HTTP surface: request metrics outermost (swift-metrics, through whatever backend the process
/// bootstrapped: counts and latency per route, method and status), then the problem middleware, so every
/// response, the router's own 404s included, gets a request id and errors become problems; then the routes.
public func buildTripHistoryRouter<Repository: TripRepository, AnalystRepository: AnalystTripRepository>(
    tripRoutes: TripRoutes<Repository>, operationalRoutes: OperationalRoutes,
    analystRoutes: AnalystRoutes<AnalystRepository>
) -> Router<TripHistoryRequestContext> {
    let router = Router(context: TripHistoryRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: ProblemMiddleware())
    operationalRoutes.register(on: router)
    tripRoutes.register(on: router)
    analystRoutes.register(on: router)
    return router
}
