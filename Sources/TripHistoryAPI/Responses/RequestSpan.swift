public import Tracing
import TripHistoryDomain

/// The span of the request being answered, carried in its `ServiceContext`, so the code that learns the
/// caller's role or the cache outcome can note them on it. Absent when tracing is off, so noting costs one
/// task-local read and nothing else.
enum RequestSpanKey: ServiceContextKey {
    typealias Value = any Span
    static var nameOverride: String? { "trip_history.request_span" }
}

extension ServiceContext {
    /// The request span this context belongs to, when the request is traced.
    public var requestSpan: (any Span)? {
        get { self[RequestSpanKey.self] }
        set { self[RequestSpanKey.self] = newValue }
    }
}

/// Span attribute names of the service's own request attributes, beside OpenTelemetry's `http.*` ones.
public enum RequestSpanAttribute {
    /// The role of the caller whose token was accepted: `rider`, `analyst` or `service`.
    public static let role = "trip_history.role"
    /// How the response cache answered a rider read: `hit`, `miss`, `coalesced` or `bypassed`.
    public static let cacheOutcome = "trip_history.cache.outcome"

    /// Notes `value` under `name` on the current request's span, if it is traced.
    static func note(_ name: String, _ value: String) {
        ServiceContext.current?.requestSpan?.attributes[name] = value
    }

    /// Notes the role of `caller` on the current request's span, if it is traced.
    static func note(_ caller: Caller) {
        ServiceContext.current?.requestSpan?.attributes[Self.role] = role(of: caller)
    }

    /// The `trip_history.role` value of `caller`.
    static func role(of caller: Caller) -> String {
        switch caller {
        case .rider: "rider"
        case .analyst: "analyst"
        case .service: "service"
        case .privacy: "privacy"
        }
    }
}
