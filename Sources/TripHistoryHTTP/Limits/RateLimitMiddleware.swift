import HTTPTypes
import Hummingbird
import TripHistoryAPI

/// Applies `RateLimitGate`'s decision to every request the router answers, except the exempt paths: a refused
/// request gets its 429 problem without reaching a route, and every other response, problems included, carries
/// the `RateLimit-Policy` and `RateLimit` fields. Sits inside `ResponseFinishingMiddleware`, whose request id it
/// uses for the problems it renders.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = TripHistoryRequestContext

    let gate: RateLimitGate

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard !RateLimitGate.exempts(request.uri.path) else { return try await next(request, context) }
        let decision = await gate.decision(
            authorization: request.headers.value(of: .authorization), address: context.clientAddress)
        guard decision.admitted else { throw decision.problem }
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            let problem = ResponseFinisher.problem(for: error, logger: context.logger)
            response = Response(problem.response(requestID: context.requestID))
        }
        decision.fields.add(to: &response.headers)
        return response
    }
}
