import HTTPTypes
import Hummingbird
import TripHistoryAPI

extension Router where Context == TripHistoryRequestContext {
    /// Answers every method but `allowed` on `path` with a 405 problem and an `Allow` header, instead of the
    /// router's default 404, which would tell clients the resource does not exist.
    func rejectOtherMethods(_ path: RouterPath, allowed: [HTTPRequest.Method]) {
        // QUERY (the safe method with a body, draft-ietf-httpbis-safe-method-w-body) is named too: clients and
        // conformance tools send it, and it must not read as "no such resource".
        let all: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options, .trace, Self.query]
        // HEAD comes with GET (the router generates it), as HTTP requires.
        for method in all where !allowed.contains(method) && !(method == .head && allowed.contains(.get)) {
            on(path, method: method) { _, _ -> Response in throw Problem.methodNotAllowed(allowed: allowed) }
        }
    }

    private static var query: HTTPRequest.Method { HTTPRequest.Method("QUERY")! }
}
