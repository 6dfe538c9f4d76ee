public import TripHistoryDomain

/// An answer found in memory, with the caller its rate limit charges, if any.
public struct StoredResponse: Sendable {
    public let response: APIResponse
    /// The `trip_history.cache.outcome` of the request span (`hit` for a stored rider read), nil for none.
    public let cacheOutcome: String?
    /// Who asked, as the token proved; nil when no caller was proven (and no rate limit applies).
    public let caller: Caller?

    public init(response: APIResponse, cacheOutcome: String? = nil, caller: Caller? = nil) {
        self.response = response
        self.cacheOutcome = cacheOutcome
        self.caller = caller
    }

    /// The `trip_history.role` of the request span: the caller's role, nil when no caller was proven.
    public var role: String? { caller.map(RequestSpanAttribute.role(of:)) }
}
