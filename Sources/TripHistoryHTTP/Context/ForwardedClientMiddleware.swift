import Hummingbird
import Logging

/// Names each request's client after a trusted forwarder's `X-Forwarded-For` or `Forwarded`
/// (`TrustedForwarders`), so that `TripHistoryRequestContext.clientAddress` is the client for everything after
/// it. Outermost in the router, and added only when forwarders are configured. A request whose connection's
/// client is not a trusted forwarder is passed on untouched, its fields unread; one whose field cannot be used
/// keeps the connection's client, and the log says why at `debug` (never the field's values).
struct ForwardedClientMiddleware: RouterMiddleware {
    typealias Context = TripHistoryRequestContext

    let forwarders: TrustedForwarders

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        switch forwarders.client(in: request.headers, connectionClient: context.connectionClient) {
        case nil, .absent:
            return try await next(request, context)
        case .client(let client):
            var context = context
            context.forwardedClient = client
            return try await next(request, context)
        case .ignored(let reason):
            context.logger.debug(
                "Forwarded client ignored: the connection's client stands.",
                metadata: ["field": "\(forwarders.field.headerName)", "reason": "\(reason)"])
            return try await next(request, context)
        }
    }
}
