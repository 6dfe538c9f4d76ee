public import HTTPTypes
public import Metrics
import Synchronization
import TripHistoryAPI

/// The request metrics of every response, whether the router or the early-read handler answered it: a
/// counter `hb.requests` and a timer `http.server.request.duration` per route pattern, method and status, and
/// `hb.request.errors` for responses that are errors. One instance serves both, so their labels cannot drift.
public final class RequestMetrics: Sendable {
    struct Key: Hashable {
        let route: String
        let method: HTTPRequest.Method
        let status: Int
    }

    struct Handles: Sendable {
        let requests: Counter
        let duration: Timer
        let errors: Counter?
    }

    private let factory: any MetricsFactory
    private let handles = Mutex<[Key: Handles]>([:])

    /// Records into `factory`: the global metrics system unless a test passes its own.
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
    }

    /// Counts one response to `method` on `route` (a route pattern such as `/v1/riders/{rider_id}/trips`)
    /// with `status`, which took `nanoseconds`.
    public func record(route: String, method: HTTPRequest.Method, status: HTTPResponse.Status, nanoseconds: UInt64) {
        let handles = self.handles(for: Key(route: route, method: method, status: status.code))
        handles.requests.increment()
        handles.duration.recordNanoseconds(Int64(clamping: nanoseconds))
        handles.errors?.increment()
    }

    private func handles(for key: Key) -> Handles {
        handles.withLock { handles in
            if let found = handles[key] { return found }
            let dimensions = [
                ("http.route", key.route), ("http.request.method", key.method.rawValue),
                ("http.response.status_code", String(key.status)),
            ]
            let made = Handles(
                requests: Counter(label: "hb.requests", dimensions: dimensions, factory: factory),
                duration: Timer(
                    label: "http.server.request.duration", dimensions: dimensions, preferredDisplayUnit: .seconds,
                    factory: factory
                ),
                errors: key.status >= 400
                    ? Counter(
                        label: "hb.request.errors",
                        dimensions: [
                            ("http.route", key.route), ("http.request.method", key.method.rawValue),
                            ("error.type", String(key.status)),
                        ],
                        factory: factory
                    ) : nil
            )
            handles[key] = made
            return made
        }
    }
}
