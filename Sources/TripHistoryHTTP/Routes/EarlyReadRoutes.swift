import HTTPTypes
import TripHistoryAPI

/// The early-read handler's match of the route table (`APIOperation`): a `GET` request's path is matched
/// against every `GET` path template as the router matches it (a fixed segment before a parameter), and when
/// the operation it names is a rider read answered early, that read answers it. Everything else (another
/// operation, such as the streamed export beside the trips, or no match) is left to the router.
struct EarlyReadRoutes: Sendable {
    /// How a rider read answers a request before the router, given its path's ids (`RiderTrips.earlyAnswer`).
    typealias Answer = @Sendable (RiderReadPath, HTTPRequest) -> EarlyAnswer?

    /// One `GET` operation of the table, its template split into segments once.
    private struct Route: Sendable {
        let operation: APIOperation
        /// The template, the route label of the request metrics.
        let label: String
        let template: PathTemplate
        let answer: Answer?
    }

    /// What a path names: the operation (the route at `index`) and the path's ids.
    struct Match: Sendable {
        let operation: APIOperation
        let path: RiderReadPath
        fileprivate let index: Int
    }

    private let routes: [Route]

    /// The table's `GET` operations, with the answers of those answered early.
    init(answers: [APIOperation: Answer]) {
        routes = APIOperation.allCases.filter { $0.method == .get }.map { operation in
            Route(
                operation: operation, label: operation.path, template: PathTemplate(operation.path),
                answer: answers[operation])
        }
    }

    /// How `head` is answered before the router: by the rider read its path names, when that read is answered
    /// early and can answer it now; nil otherwise.
    func answer(to head: HTTPRequest) -> EarlyRead? {
        guard head.method == .get, let target = head.path, let match = match(QueryParameters.path(ofTarget: target)),
            let answer = routes[match.index].answer?(match.path, head)
        else { return nil }
        return EarlyRead(route: routes[match.index].label, answer: answer)
    }

    /// The operation the router routes a `GET` of `path` (without its query) to, with the path's ids: of the
    /// templates that match, the one with the most fixed segments first.
    func match(_ path: Substring) -> Match? {
        // Only templates with as many segments can match: the others are passed over without reading them.
        let segmentCount = path.utf8.count { $0 == UInt8(ascii: "/") } + 1
        var best: Match?
        var bestPrecedence: UInt64 = 0
        for index in routes.indices where routes[index].template.segmentCount == segmentCount {
            let precedence = routes[index].template.precedence
            guard best == nil || precedence > bestPrecedence, let ids = routes[index].template.match(path) else {
                continue
            }
            best = Match(operation: routes[index].operation, path: ids, index: index)
            bestPrecedence = precedence
        }
        return best
    }
}
