import TripHistoryAPI

/// The rate limits of `serve`, per instance, on unless `TRIP_HISTORY_RATE_LIMITS=off`: each role's limit as
/// `RATE/BURST`, requests per second and the burst a full bucket admits at once, and the most buckets held.
extension RateLimits.Configuration {
    /// The limits, or nil when they are off. Throws on a malformed value.
    init?(settings: SettingsReader) throws {
        guard try settings.isOn(.rateLimits) ?? true else { return nil }
        self.init()
        rider = try Self.policy(settings, .rateLimitRider, name: "rider") ?? Self.defaultRider
        analyst = try Self.policy(settings, .rateLimitAnalyst, name: "analyst") ?? Self.defaultAnalyst
        service = try Self.policy(settings, .rateLimitService, name: "service") ?? Self.defaultService
        anonymous = try Self.policy(settings, .rateLimitAnonymous, name: "anonymous") ?? Self.defaultAnonymous
        maximumBuckets = try settings.integer(.rateLimitBuckets, in: 1...100_000_000) ?? maximumBuckets
    }

    /// The setting parsed as `RATE/BURST`; nil when it is unset.
    private static func policy(_ settings: SettingsReader, _ setting: Setting, name: String) throws -> RateLimitPolicy?
    {
        guard let text = settings.string(setting) else { return nil }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let rate = Double(parts[0]), let burst = Int(parts[1]),
            let policy = RateLimitPolicy(name: name, requestsPerSecond: rate, burst: burst)
        else {
            throw ConfigurationError(
                "\(setting) must be RATE/BURST: requests per second from 0.001 to 1000000000 "
                    + "and a burst from 1 to 1000000, e.g. 20/60; not '\(text)'.")
        }
        return policy
    }
}
