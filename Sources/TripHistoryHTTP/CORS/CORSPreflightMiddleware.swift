import HTTPTypes
import Hummingbird

/// Answers a CORS preflight from a configured origin with `204` and the policy's fields
/// (`CORSPolicy.preflightFields(for:)`), before the routes; `ResponseFinisher` never charges a preflight to the
/// rate limits, since it carries no token and costs nothing to answer. Every other request, `OPTIONS` from other
/// origins included, goes on.
struct CORSPreflightMiddleware: RouterMiddleware {
    typealias Context = TripHistoryRequestContext

    let policy: CORSPolicy

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let fields = policy.preflightFields(for: request.head) else { return try await next(request, context) }
        return Response(status: .noContent, headers: fields)
    }
}
