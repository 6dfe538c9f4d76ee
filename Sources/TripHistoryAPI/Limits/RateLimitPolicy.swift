public import HTTPTypes

/// One class of callers' token bucket: `requestsPerSecond` refill a bucket of `burst` requests, and the
/// `RateLimit-Policy` / `RateLimit` fields that describe it (draft-ietf-httpapi-ratelimit-headers-10, the
/// structured-field syntax: `RateLimit-Policy: "rider";q=60;w=3`, `RateLimit: "rider";r=41;t=1`). `q` is the
/// burst and `w` the whole seconds an empty bucket takes to refill; `r` is the requests left now and `t` the
/// whole seconds until the bucket is full again. A class, so that requests pass one reference to it around
/// rather than copies of its fields.
public final class RateLimitPolicy: Sendable, Equatable {
    /// The policy's name in the fields and the `role` label of its metrics.
    public let name: String
    public let requestsPerSecond: Double
    public let burst: Int

    /// Nanoseconds one request takes to come back.
    let intervalNanoseconds: UInt64
    /// `RateLimit-Policy`, the same on every response.
    let policyField: HTTPField
    /// `RateLimit` values for every `r` and `t` when there are few enough to build up front (most policies),
    /// indexed `t * (burst + 1) + r`, so a response never formats one.
    private let stateFields: [HTTPField]
    private let maximumResetSeconds: Int

    public static let policyName = HTTPField.Name("RateLimit-Policy")!
    public static let stateName = HTTPField.Name("RateLimit")!

    /// `requestsPerSecond` must be from 0.001 to 1,000,000,000 and `burst` from 1 to 1,000,000; nil otherwise.
    public init?(name: String, requestsPerSecond: Double, burst: Int) {
        guard requestsPerSecond.isFinite, requestsPerSecond >= 0.001, requestsPerSecond <= 1e9, burst >= 1,
            burst <= 1_000_000
        else { return nil }
        self.name = name
        self.requestsPerSecond = requestsPerSecond
        self.burst = burst
        let interval = max(UInt64((1e9 / requestsPerSecond).rounded()), 1)
        intervalNanoseconds = interval
        let window = Self.wholeSeconds(UInt64(burst) * interval)
        maximumResetSeconds = window
        policyField = HTTPField(name: Self.policyName, value: "\"\(name)\";q=\(burst);w=\(window)")
        let count = (burst + 1) * (window + 1)
        stateFields =
            count <= 8192
            ? (0...window).flatMap { reset in
                (0...burst).map { remaining in Self.stateField(name: name, remaining: remaining, reset: reset) }
            } : []
    }

    public static func == (lhs: RateLimitPolicy, rhs: RateLimitPolicy) -> Bool {
        lhs.name == rhs.name && lhs.requestsPerSecond == rhs.requestsPerSecond && lhs.burst == rhs.burst
    }

    /// The `RateLimit` field for `remaining` requests left and `reset` whole seconds until the bucket is full.
    func stateField(remaining: Int, reset: Int) -> HTTPField {
        if !stateFields.isEmpty, remaining <= burst, reset <= maximumResetSeconds {
            return stateFields[reset * (burst + 1) + remaining]
        }
        return Self.stateField(name: name, remaining: remaining, reset: reset)
    }

    /// Nanoseconds rounded up to whole seconds.
    static func wholeSeconds(_ nanoseconds: UInt64) -> Int {
        Int(nanoseconds / 1_000_000_000 + (nanoseconds % 1_000_000_000 == 0 ? 0 : 1))
    }

    private static func stateField(name: String, remaining: Int, reset: Int) -> HTTPField {
        HTTPField(name: stateName, value: "\"\(name)\";r=\(remaining);t=\(reset)")
    }
}
