import HTTPTypes
import TripHistoryCache

/// The `Server-Timing` header (W3C Server Timing) of the rider routes: `db` and `encode` durations in
/// milliseconds for a response computed by this request, `cache;desc=hit|coalesced|miss|bypass` when a cache
/// is configured.
enum ServerTiming {
    static let name = HTTPField.Name("Server-Timing")!
    /// The value of a response served from the cache: nothing was measured for it.
    static let hit = "cache;desc=hit"

    static func value(for response: CachedTripResponse, source: TripResponseCache.Source?) -> String {
        let durations = "db;dur=\(milliseconds(response.database)), encode;dur=\(milliseconds(response.encoding))"
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
