public import TripHistoryDomain

/// How a rider read is answered before the router (`RiderTrips.earlyAnswer(_:path:head:)`).
public enum EarlyAnswer: Sendable {
    /// The response is in memory.
    case stored(StoredResponse)
    /// The response is computed by `compute`, which throws what the route would report as a problem (the
    /// store is unavailable, the trip is not there); `caller` is whom its rate limit charges (nil: none).
    case computed(caller: Caller? = nil, compute: @Sendable () async throws -> APIResponse)

    /// Whom its rate limit charges; nil for none (the liveness probe).
    public var caller: Caller? {
        switch self {
        case .stored(let stored): stored.caller
        case .computed(let caller, _): caller
        }
    }
}
