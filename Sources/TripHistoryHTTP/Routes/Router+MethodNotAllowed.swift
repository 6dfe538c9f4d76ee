import HTTPTypes
import Hummingbird

extension Router where Context == TripHistoryRequestContext {
    /// Answers every method but `allowed` on `path` with a 405 problem and an `Allow` header, instead of the
    /// router's default 404, which would tell clients the resource does not exist.
    func rejectOtherMethods(_ path: RouterPath, allowed: [HTTPRequest.Method]) {
        let all: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options]
        for method in all where !allowed.contains(method) {
            on(path, method: method) { _, _ -> Response in throw Problem.methodNotAllowed(allowed: allowed) }
        }
    }
}
