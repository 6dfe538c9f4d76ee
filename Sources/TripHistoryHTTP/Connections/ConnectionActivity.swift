/// What one connection is doing, written by its two guards (`ConnectionGuard` sees bytes, `RequestGuard`
/// sees requests and responses) and read by the connection's timer. Times are counts of the timer's ticks,
/// so recording one costs a store, never a clock read.
final class ConnectionActivity {
    /// Ticks of the connection's timer so far.
    var now = 0
    /// Requests passed on whose response has not been completely written.
    var inFlight = 0
    /// Whether a request's head arrived and its end has not.
    var readingBody = false
    /// When a byte of the request body last arrived, while `readingBody`.
    var lastBodyRead = 0
    /// When the head of the request whose body is being read was decoded, while `readingBody`.
    var bodyStarted = 0
    /// When the first byte of a head not yet decoded arrived; nil when none is pending.
    var headStarted: Int?
    /// Bytes of the pending head's request line seen so far, while its end has not been seen.
    var requestLineBytes = 0
    /// Whether the pending head's request line has ended (or is not being measured).
    var requestLineEnded = true
    /// When the connection last had no request in progress: its opening, or its last response's end.
    var idleSince = 0
    /// Whether a response was completed, so the next head is waited for with the idle timeout.
    var servedOne = false
    /// Since when the channel refuses more writes because the client does not read; nil while writable.
    var unwritableSince: Int?
    /// Set once the connection is being answered with a refusal and closed: its input is ignored.
    var refusing = false
}

/// What `ConnectionGuard` asks `RequestGuard` to answer on the connection before closing it.
enum ConnectionRefusal: Sendable {
    /// The server is at its connection cap: 503.
    case tooManyConnections
    /// The request head did not arrive in time: 408.
    case headTimeout
    /// The request line is longer than the target limit: 414.
    case targetTooLong
}
