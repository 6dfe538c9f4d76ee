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
/// - `TRIP_HISTORY_CACHE_COHERENCE` (`--cache-coherence`): `local` (default) serves a warm hit at once;
///   `strict` serves it only after the change-feed barrier proved every write acknowledged by any instance
///   before the read was announced here (several instances).
struct CacheOptions: ParsableArguments {
    /// How cached responses relate to writes acknowledged by other instances.
    enum Coherence: String, Sendable {
        /// A write on another instance is seen once its notification arrives here.
        case local
        /// A write acknowledged by any instance before a read began is never missed by it.
        case strict
    }

    @Option(help: "Response cache budget in bytes. Default: $TRIP_HISTORY_CACHE_BYTES, else 33554432 (32 MiB).")
    var cacheBytes: Int?

    @Option(help: "Seconds a cached response may be served. Default: $TRIP_HISTORY_CACHE_TTL_SECONDS, else 30.")
    var cacheTtl: Int?

    @Flag(help: "Serve every read from PostgreSQL (same as TRIP_HISTORY_CACHE=off).")
    var noCache = false

    @Option(
        help: "Cache coherence across instances, local or strict. Default: $TRIP_HISTORY_CACHE_COHERENCE, else local.")
    var cacheCoherence: String?

    /// The coherence mode; throws on anything but local or strict.
    func coherence(environment: [String: String]) throws -> Coherence {
        let text = cacheCoherence ?? environment["TRIP_HISTORY_CACHE_COHERENCE"] ?? "local"
        guard let coherence = Coherence(rawValue: text.lowercased()) else {
            throw ValidationError("The cache coherence must be local or strict, not '\(text)'.")
        }
        return coherence
    }

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
