import Hummingbird
import TripHistoryDomain

/// Builds the HTTP surface: the problem middleware first, so every response, the router's own 404s
/// included, gets a request id and errors become problems; then the routes.
public func buildTripHistoryRouter<Repository: TripRepository>(
    tripRoutes: TripRoutes<Repository>, operationalRoutes: OperationalRoutes
) -> Router<TripHistoryRequestContext> {
    let router = Router(context: TripHistoryRequestContext.self)
    router.add(middleware: ProblemMiddleware())
    operationalRoutes.register(on: router)
    tripRoutes.register(on: router)
    return router
}
