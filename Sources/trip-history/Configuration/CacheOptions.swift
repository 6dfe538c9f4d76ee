import ArgumentParser
import TripHistoryAPI
import TripHistoryCache
import TripHistoryHTTP

/// The response cache of `serve`. Flags override the environment:
///
/// - `TRIP_HISTORY_CACHE=off` (or `--no-cache`): no cache; every read reaches PostgreSQL. Responses are the
///   same except `Server-Timing`.
/// - `TRIP_HISTORY_CACHE_BYTES` (`--cache-bytes`): memory budget in bytes, keys and bookkeeping included
///   (default 33554432, 32 MiB).
/// - `TRIP_HISTORY_CACHE_TTL_SECONDS` (`--cache-ttl`): seconds an entry may be served (default 30).
struct CacheOptions: ParsableArguments {
    @Option(help: "Response cache budget in bytes. Default: $TRIP_HISTORY_CACHE_BYTES, else 33554432 (32 MiB).")
    var cacheBytes: Int?

    @Option(help: "Seconds a cached response may be served. Default: $TRIP_HISTORY_CACHE_TTL_SECONDS, else 30.")
    var cacheTtl: Int?

    @Flag(help: "Serve every read from PostgreSQL (same as TRIP_HISTORY_CACHE=off).")
    var noCache = false

    /// The cache limits, or nil when the cache is off. Throws on a value that is not a positive integer.
    func configuration(environment: [String: String]) throws -> TripResponseCacheConfiguration? {
        if noCache { return nil }
        switch environment["TRIP_HISTORY_CACHE"]?.lowercased() {
        case nil, "", "on": break
        case "off": return nil
        case let other?: throw ValidationError("TRIP_HISTORY_CACHE must be on or off, not '\(other)'.")
        }
        let bytes =
            try cacheBytes ?? Self.positive(environment, "TRIP_HISTORY_CACHE_BYTES")
            ?? TripResponseCacheConfiguration.defaultMaximumBytes
        let seconds = try cacheTtl ?? Self.positive(environment, "TRIP_HISTORY_CACHE_TTL_SECONDS") ?? 30
        guard bytes > 0 else { throw ValidationError("The cache size must be a positive number of bytes.") }
        guard seconds > 0 else { throw ValidationError("The cache TTL must be a positive number of seconds.") }
        return TripResponseCacheConfiguration(maximumBytes: bytes, timeToLive: .seconds(seconds))
    }

    private static func positive(_ environment: [String: String], _ name: String) throws -> Int? {
        guard let text = environment[name] else { return nil }
        guard let value = Int(text), value > 0 else { throw ValidationError("\(name) must be a positive integer.") }
        return value
    }
}
