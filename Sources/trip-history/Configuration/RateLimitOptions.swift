import ArgumentParser
import TripHistoryAPI

/// The rate limits of `serve`, per instance. Flags override the environment:
///
/// - `TRIP_HISTORY_RATE_LIMITS=off` (or `--no-rate-limits`): no limits and no rate-limit fields.
/// - `TRIP_HISTORY_RATE_LIMIT_RIDER` (`--rate-limit-rider`), `..._ANALYST`, `..._SERVICE` and `..._ANONYMOUS`
///   (requests without a valid token, per client address): `RATE/BURST`, requests per second and the burst a
///   full bucket admits at once (defaults 20/60, 10/30, 200/400 and 5/20).
/// - `TRIP_HISTORY_RATE_LIMIT_BUCKETS` (`--rate-limit-buckets`): the most buckets held (default 100000).
struct RateLimitOptions: ParsableArguments {
    @Option(help: "Rider limit as RATE/BURST. Default: $TRIP_HISTORY_RATE_LIMIT_RIDER, else 20/60.")
    var rateLimitRider: String?

    @Option(help: "Analyst limit as RATE/BURST. Default: $TRIP_HISTORY_RATE_LIMIT_ANALYST, else 10/30.")
    var rateLimitAnalyst: String?

    @Option(help: "Service limit as RATE/BURST. Default: $TRIP_HISTORY_RATE_LIMIT_SERVICE, else 200/400.")
    var rateLimitService: String?

    @Option(
        help:
            "Limit per client address without a valid token, as RATE/BURST. Default: $TRIP_HISTORY_RATE_LIMIT_ANONYMOUS, else 5/20."
    )
    var rateLimitAnonymous: String?

    @Option(help: "Most rate-limit buckets held. Default: $TRIP_HISTORY_RATE_LIMIT_BUCKETS, else 100000.")
    var rateLimitBuckets: Int?

    @Flag(help: "Limit no caller (same as TRIP_HISTORY_RATE_LIMITS=off).")
    var noRateLimits = false

    /// The limits, or nil when they are off. Throws on a malformed value.
    func configuration(environment: [String: String]) throws -> RateLimits.Configuration? {
        if noRateLimits { return nil }
        switch environment["TRIP_HISTORY_RATE_LIMITS"]?.lowercased() {
        case nil, "", "on": break
        case "off": return nil
        case let other?: throw ValidationError("TRIP_HISTORY_RATE_LIMITS must be on or off, not '\(other)'.")
        }
        typealias Defaults = RateLimits.Configuration
        var configuration = RateLimits.Configuration()
        configuration.rider =
            try Self.policy(rateLimitRider, environment, "RIDER", name: "rider") ?? Defaults.defaultRider
        configuration.analyst =
            try Self.policy(rateLimitAnalyst, environment, "ANALYST", name: "analyst") ?? Defaults.defaultAnalyst
        configuration.service =
            try Self.policy(rateLimitService, environment, "SERVICE", name: "service") ?? Defaults.defaultService
        configuration.anonymous =
            try Self.policy(rateLimitAnonymous, environment, "ANONYMOUS", name: "anonymous")
            ?? Defaults.defaultAnonymous
        if let buckets = try rateLimitBuckets ?? Self.integer(environment, "TRIP_HISTORY_RATE_LIMIT_BUCKETS") {
            guard buckets > 0 else { throw ValidationError("The rate-limit bucket count must be a positive integer.") }
            configuration.maximumBuckets = buckets
        }
        return configuration
    }

    private static func integer(_ environment: [String: String], _ name: String) throws -> Int? {
        guard let text = environment[name] else { return nil }
        guard let value = Int(text) else { throw ValidationError("\(name) must be a positive integer.") }
        return value
    }

    /// The flag's value, else the variable's, parsed as `RATE/BURST`; nil when neither is given.
    private static func policy(
        _ flag: String?, _ environment: [String: String], _ suffix: String, name: String
    ) throws -> RateLimitPolicy? {
        let variable = "TRIP_HISTORY_RATE_LIMIT_\(suffix)"
        guard let text = flag ?? environment[variable] else { return nil }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let rate = Double(parts[0]), let burst = Int(parts[1]),
            let policy = RateLimitPolicy(name: name, requestsPerSecond: rate, burst: burst)
        else {
            throw ValidationError(
                "\(variable) (--rate-limit-\(name)) must be RATE/BURST: requests per second from 0.001 to 1000000000 "
                    + "and a burst from 1 to 1000000, e.g. 20/60; not '\(text)'.")
        }
        return policy
    }
}
