import HTTPTypes
import TripHistoryCache

/// The `Server-Timing` header (W3C Server Timing), so load tests can split a response's latency: `db` (use
/// case and repository) and `encode` (display strings, JSON, tag) durations in milliseconds for a response
/// computed by this request, on every API response with a body computed up front (rider reads, the trip
/// recorded, analyst pages and stats; not streamed exports, whose totals are unknown when the head leaves).
/// Rider reads add `cache;desc=hit|coalesced|miss|bypass` when a cache is configured.
enum ServerTiming {
    static let name = HTTPField.Name("Server-Timing")!
    /// The value of a response served from the cache: nothing was measured for it.
    static let hit = "cache;desc=hit"

    /// `db;dur=..., encode;dur=...`.
    static func durations(database: Duration, encoding: Duration) -> String {
        "db;dur=\(milliseconds(database)), encode;dur=\(milliseconds(encoding))"
    }

    /// The durations of a response whose query started at `queryStarted` and whose encoding started at
    /// `encodingStarted` and ends now.
    static func durations(queryStarted: ContinuousClock.Instant, encodingStarted: ContinuousClock.Instant) -> String {
        durations(database: encodingStarted - queryStarted, encoding: .now - encodingStarted)
    }

    static func value(for response: CachedTripResponse, source: TripResponseCache.Source?) -> String {
        let durations = durations(database: response.database, encoding: response.encoding)
        switch source {
        case nil: return durations
        case .hit: return hit
        case .coalesced: return "cache;desc=coalesced"
        case .computed: return "cache;desc=miss, " + durations
        case .bypassed: return "cache;desc=bypass, " + durations
        }
    }

    /// Milliseconds with three decimals, without Foundation's formatter.
    static func milliseconds(_ duration: Duration) -> String {
        let micros = max(
            duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000, 0)
        let fraction = String(micros % 1_000)
        return "\(micros / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
