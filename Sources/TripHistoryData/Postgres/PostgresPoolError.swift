/// Why the pool could not lend a connection. Failures to open a connection are `PostgresError`s instead.
public enum PostgresPoolError: Error, Hashable, Sendable {
    /// Every connection stayed busy for the whole acquire timeout.
    case acquireTimeout
    /// Every connection was busy and the most callers the pool lets wait were already waiting; refused at
    /// once rather than queued (load shedding).
    case overloaded
    /// Too many single-statement reads were already waiting for a pipelined connection
    /// (`Configuration.maximumQueuedReads`).
    case readQueueFull
    /// The pool was shut down; it lends nothing any more.
    case shutdown
}
