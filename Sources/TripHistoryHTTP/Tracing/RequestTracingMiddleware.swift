import Hummingbird
import Tracing
import TripHistoryAPI

/// Traces every request the router answers: its span (`RequestTracing.start(_:)`) is the context of the
/// layers inside, and ends when the response's head is ready (a streamed export's later batches are spans of
/// their own under it).
/// Sits inside `ProblemMiddleware`, whose request id it records; errors from inside are turned into their
/// problem here, as `RateLimitMiddleware` does, so the span sees the status the client gets.
struct RequestTracingMiddleware: RouterMiddleware {
    typealias Context = TripHistoryRequestContext

    let tracing: RequestTracing

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let span = tracing.start(request.head)
        var response: Response
        do {
            response = try await RequestTracing.run(in: span) { try await next(request, context) }
        } catch {
            let problem = ProblemMiddleware.problem(for: error, logger: context.logger)
            response = Response(problem.response(requestID: context.requestID))
        }
        let (tracing, status, route) = (self.tracing, response.status, context.endpointPath)
        let (requestID, logger) = (context.requestID, context.logger)
        tracing.finish(
            span, route: route, status: status, headers: &response.headers, requestID: requestID, logger: logger)
        return response
    }
}
