import Dispatch
import Hummingbird
import TripHistoryAPI

/// Records every router response in `RequestMetrics` once its body has been written, under the route
/// pattern the router matched (`NotFound` when none did).
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = TripHistoryRequestContext

    let metrics: RequestMetrics

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = DispatchTime.now().uptimeNanoseconds
        var response = try await next(request, context)
        let (metrics, status, method) = (self.metrics, response.status, request.method)
        let route = context.endpointPath ?? "NotFound"
        let body = response.body
        // Recorded once the body has been written (or failed), so a streamed export counts its whole time.
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            defer {
                metrics.record(
                    route: route, method: method, status: status,
                    nanoseconds: DispatchTime.now().uptimeNanoseconds - started)
            }
            try await body.write(writer)
        }
        return response
    }
}
