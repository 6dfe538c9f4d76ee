/// How large one purpose's connection pool is and how many callers may wait for it; a caller beyond
/// `maximumWaiters` is answered 503 with `Retry-After` at once instead of queueing.
public struct PoolSettings: Sendable, Equatable {
    public var size: Int
    public var maximumWaiters: Int

    public init(size: Int, maximumWaiters: Int) {
        self.size = size
        self.maximumWaiters = maximumWaiters
    }
}
