public import CoreMetrics
public import HTTPTypes
public import NIOCore
public import TripHistoryDomain

/// The API's one rate-limit decision, for the routes and the early-read handler alike: a caller with a valid
/// token is counted in the bucket of its subject and role, any other request in the bucket of its client
/// address. The probes and the metrics scrape (`exemptPaths`) are never counted.
public final class RateLimits: Sendable {
    /// The policies of each class of caller, and how many buckets may be held.
    public struct Configuration: Sendable, Equatable {
        public var rider: RateLimitPolicy
        public var analyst: RateLimitPolicy
        public var service: RateLimitPolicy
        /// Requests without a valid token, per client address.
        public var anonymous: RateLimitPolicy
        public var maximumBuckets: Int

        public init(
            rider: RateLimitPolicy = Self.defaultRider, analyst: RateLimitPolicy = Self.defaultAnalyst,
            service: RateLimitPolicy = Self.defaultService, anonymous: RateLimitPolicy = Self.defaultAnonymous,
            maximumBuckets: Int = 100_000
        ) {
            self.rider = rider
            self.analyst = analyst
            self.service = service
            self.anonymous = anonymous
            self.maximumBuckets = maximumBuckets
        }

        /// An app refreshing and paging: 20 requests a second, bursts of 60.
        public static let defaultRider = RateLimitPolicy(name: "rider", requestsPerSecond: 20, burst: 60)!
        /// Dashboards and exports: 10 a second, bursts of 30 (their queries are the most expensive).
        public static let defaultAnalyst = RateLimitPolicy(name: "analyst", requestsPerSecond: 10, burst: 30)!
        /// A backend recording trips for many riders: 200 a second, bursts of 400.
        public static let defaultService = RateLimitPolicy(name: "service", requestsPerSecond: 200, burst: 400)!
        /// No valid token (a browser on the explorer, a bad token): 5 a second, bursts of 20, per address.
        public static let defaultAnonymous = RateLimitPolicy(name: "anonymous", requestsPerSecond: 5, burst: 20)!
    }

    /// Paths never counted and never refused: the liveness and readiness probes and the metrics scrape, so
    /// that a throttled client can never make an instance look unhealthy or hide its metrics.
    public static let exemptPaths: Set<String> = ["/healthz", "/readyz", "/metrics"]

    public let configuration: Configuration
    let limiter: RateLimiter
    private let tokens: AccessTokens
    private let refused: [Counter]

    /// Limits checked against `tokens`' verified callers; counts in `factory` refused requests per role
    /// (`trip_history_rate_limited_requests_total{role}`) and the buckets held (`trip_history_rate_limit_buckets`).
    public init(
        configuration: Configuration, tokens: AccessTokens, factory: any MetricsFactory = MetricsSystem.factory,
        now: @escaping @Sendable () -> UInt64 = RateLimits.monotonicNanoseconds
    ) {
        self.configuration = configuration
        self.tokens = tokens
        let buckets = Gauge(label: "trip_history_rate_limit_buckets", factory: factory)
        limiter = RateLimiter(capacity: configuration.maximumBuckets, now: now) { buckets.record($0) }
        refused = [configuration.rider, configuration.analyst, configuration.service, configuration.anonymous].map {
            Counter(
                label: "trip_history_rate_limited_requests_total", dimensions: [("role", $0.name)], factory: factory)
        }
    }

    /// The clock the limits use unless a test injects one.
    @Sendable public static func monotonicNanoseconds() -> UInt64 {
        RateLimiter.monotonicNanoseconds()
    }

    /// Counts a request of a caller with a valid token. Never waits, so an event-loop handler may call it.
    public func decision(for caller: Caller) -> RateLimitDecision {
        switch caller {
        case .rider: return decision(RateLimitKey(caller), configuration.rider, index: 0)
        case .analyst: return decision(RateLimitKey(caller), configuration.analyst, index: 1)
        // The privacy role is a back-office tool: it shares the services' limits (and their counter).
        case .service, .privacy: return decision(RateLimitKey(caller), configuration.service, index: 2)
        }
    }

    /// Counts a request that reached the router: in its caller's bucket when its `Authorization` carries a
    /// valid token (verified here if it was not before) or one of this service's that only expired, else in the
    /// bucket of `address`.
    public func decision(authorization: String?, address: SocketAddress?) async -> RateLimitDecision {
        if authorization != nil {
            if let caller = try? await tokens.caller(authorization: authorization) {
                return decision(for: caller)
            }
            if let caller = await tokens.expiredCaller(authorization: authorization) {
                return decision(for: caller)
            }
        }
        return decision(RateLimitKey(address: address), configuration.anonymous, index: 3)
    }

    private func decision(_ key: RateLimitKey, _ policy: RateLimitPolicy, index: Int) -> RateLimitDecision {
        let outcome = limiter.take(key, policy: policy)
        if !outcome.admitted { refused[index].increment() }
        return RateLimitDecision(outcome: outcome, policy: policy)
    }
}

/// Whether a request may proceed, and the fields its response carries either way.
public struct RateLimitDecision: Sendable {
    public let admitted: Bool
    /// `RateLimit-Policy` and `RateLimit`, for every response to the request.
    public let fields: RateLimitFields
    private let retryAfterSeconds: Int

    init(outcome: RateLimiter.Outcome, policy: RateLimitPolicy) {
        admitted = outcome.admitted
        fields = RateLimitFields(
            policy: policy, remaining: outcome.remaining, reset: RateLimitPolicy.wholeSeconds(outcome.resetNanoseconds))
        retryAfterSeconds = max(1, RateLimitPolicy.wholeSeconds(outcome.retryAfterNanoseconds))
    }

    /// The 429 of a refused request: `rate_limited`, retryable, with `Retry-After`. Its `fields`, like every
    /// other response's, are added by whoever finishes the response.
    public var problem: Problem {
        Problem(
            status: .tooManyRequests, code: .rateLimited, title: "Too many requests",
            detail: "This caller has sent more requests than its rate limit allows; retry after the indicated delay.",
            retryAfterSeconds: retryAfterSeconds)
    }
}

/// The `RateLimit-Policy` and `RateLimit` fields of one response: the policy and its state, which are made
/// fields (without formatting, for most policies) only when added to a response.
public struct RateLimitFields: Sendable, Equatable {
    public let policy: RateLimitPolicy
    /// `r`: the requests still admitted.
    public let remaining: Int
    /// `t`: whole seconds until the bucket is full.
    public let reset: Int

    /// `RateLimit`.
    public var state: HTTPField { policy.stateField(remaining: remaining, reset: reset) }

    /// Adds both fields to `headers`.
    public func add(to headers: inout HTTPFields) {
        headers.append(policy.policyField)
        headers.append(state)
    }
}
