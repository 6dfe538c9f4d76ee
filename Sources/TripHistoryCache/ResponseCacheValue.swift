/// A value the response cache can hold: it must say how many bytes it keeps alive, so the cache can stay
/// within its byte budget.
public protocol ResponseCacheValue: Sendable {
    /// The bytes this value keeps alive (bodies, header strings), excluding the cache's own bookkeeping,
    /// which the cache adds itself.
    var cacheCost: Int { get }
}
