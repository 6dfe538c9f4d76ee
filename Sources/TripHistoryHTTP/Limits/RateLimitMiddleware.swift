import HTTPTypes
import Hummingbird
import Tracing
import TripHistoryAPI

/// Applies the API's rate-limit decision (`RateLimits`) to every request the router answers, except the
/// exempt paths: a refused request gets its 429 problem without reaching a route, and every other response,
/// problems included, carries the `RateLimit-Policy` and `RateLimit` fields. Sits inside
/// `ResponseFinishingMiddleware`, whose request id it uses for the problems it renders. With `tracer`, the
/// decision of a traced request is a span of its own.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = TripHistoryRequestContext

    let limits: RateLimits
    var tracer: (any Tracer)? = nil

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard !RateLimits.exemptPaths.contains(request.uri.path) else { return try await next(request, context) }
        let decision: RateLimitDecision
        if let tracer, ServiceContext.current != nil {
            decision = await tracer.withSpan("rate_limit.decision") { span in
                let decision = await limits.decision(
                    authorization: request.headers.value(of: .authorization), address: context.clientAddress)
                span.attributes["trip_history.rate_limit.admitted"] = decision.admitted
                return decision
            }
        } else {
            decision = await limits.decision(
                authorization: request.headers.value(of: .authorization), address: context.clientAddress)
        }
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
