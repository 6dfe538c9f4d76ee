public import TripHistoryData

extension PostgresConnectionPool {
    /// The pool with its `run()` started in the background, as the application's service group starts it: the
    /// acquire timeouts, the waiting gauges and the expiry of pipelined reads only happen there. The task ends
    /// once the pool is shut down, which the caller does.
    public func running() -> PostgresConnectionPool {
        Task { try await run() }
        return self
    }
}
