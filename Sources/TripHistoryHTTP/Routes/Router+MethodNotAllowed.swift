import HTTPTypes
import Hummingbird
import TripHistoryAPI

extension Router where Context == TripHistoryRequestContext {
    /// Answers every method but `allowed` on `path` with a 405 problem and an `Allow` header, instead of the
    /// router's default 404, which would tell clients the resource does not exist.
    func rejectOtherMethods(_ path: RouterPath, allowed: [HTTPRequest.Method]) {
        let all: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options, .trace]
        // HEAD comes with GET (the router generates it), as HTTP requires.
        for method in all where !allowed.contains(method) && !(method == .head && allowed.contains(.get)) {
            on(path, method: method) { _, _ -> Response in throw Problem.methodNotAllowed(allowed: allowed) }
        }
    }
}
