import NIOCore
public import Tracing
public import TripHistoryAPI
import TripHistoryDomain

/// Where every request's rate limit is decided, on either path: `ResponseFinisher` asks it for the caller of a
/// read the early-read handler answers and for every request the router answers. `RateLimits` keeps the
/// buckets; this decides which bucket a request is charged to and, with `tracer`, makes the router's decision a
/// span of its own.
public struct RateLimitGate: Sendable {
    let limits: RateLimits
    let tracer: (any Tracer)?

    /// Decides with `limits`; with `tracer`, the router's decisions of traced requests are spans.
    public init(limits: RateLimits, tracer: (any Tracer)? = nil) {
        self.limits = limits
        self.tracer = tracer
    }

    /// Whether `path` is never counted nor refused (the probes and the metrics scrape).
    static func exempts(_ path: String) -> Bool {
        RateLimits.exemptPaths.contains(path)
    }

    /// The decision for a read whose token was verified before. Never waits, so an event-loop handler may ask.
    func decision(for caller: Caller) -> RateLimitDecision {
        limits.decision(for: caller)
    }

    /// The decision for a request that reached the router, charged to its token's caller when the token is
    /// valid or only expired, else to `address`.
    func decision(authorization: String?, address: SocketAddress?) async -> RateLimitDecision {
        guard let tracer, ServiceContext.current != nil else {
            return await limits.decision(authorization: authorization, address: address)
        }
        return await tracer.withSpan("rate_limit.decision") { span in
            let decision = await limits.decision(authorization: authorization, address: address)
            span.attributes["trip_history.rate_limit.admitted"] = decision.admitted
            return decision
        }
    }
}
