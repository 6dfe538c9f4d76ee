/// How large one purpose's connection pool is and how many callers may wait for it; a caller beyond
/// `maximumWaiters` is answered 503 with `Retry-After` at once instead of queueing.
struct PoolSettings: Sendable, Equatable {
    var size: Int
    var maximumWaiters: Int
}
