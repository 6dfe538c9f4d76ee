import Foundation

/// How the client repeats a request that failed recoverably (`TripHistoryError.isRecoverable`).
///
/// The wait before a repeat is the service's `Retry-After` when it sent one (`429`, `503`), else an
/// exponential backoff from `baseDelay`, at most `maxDelay`. A `Retry-After` longer than `maxDelay` is not
/// waited for: the error goes to the app, which can offer a retry. Delays are in seconds (`TimeInterval`
/// rather than `Duration`, which needs iOS 16).
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included; 1 never repeats.
    public var maxAttempts: Int
    /// The first backoff delay, in seconds; each further one doubles.
    public var baseDelay: TimeInterval
    /// The longest wait before a repeat, in seconds.
    public var maxDelay: TimeInterval
    /// Waits that many seconds; throws when the task is cancelled. Tests inject one that records instead of
    /// waiting.
    public var sleep: @Sendable (TimeInterval) async throws -> Void

    /// A policy; `sleep` defaults to `Task.sleep`.
    public init(
        maxAttempts: Int, baseDelay: TimeInterval, maxDelay: TimeInterval,
        sleep: @escaping @Sendable (TimeInterval) async throws -> Void = { try await RetryPolicy.taskSleep($0) }
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.sleep = sleep
    }

    /// Three repeats, from half a second, waiting at most 30 seconds.
    public static let standard = RetryPolicy(maxAttempts: 4, baseDelay: 0.5, maxDelay: 30)

    /// No repeats: every failure goes to the caller.
    public static let never = RetryPolicy(maxAttempts: 1, baseDelay: 0, maxDelay: 0)

    /// The wait in seconds before attempt number `attempt` (2 for the first repeat) after `error`; nil when the
    /// error is not recoverable, the attempts are used up, or the service asked for a longer wait than
    /// `maxDelay`.
    public func delay(before attempt: Int, after error: TripHistoryError) -> TimeInterval? {
        guard error.isRecoverable, attempt <= maxAttempts, attempt >= 2 else { return nil }
        if let retryAfter = error.retryAfter {
            return retryAfter <= maxDelay ? retryAfter : nil
        }
        let backoff = baseDelay * Double(1 << min(attempt - 2, 20))
        return min(backoff, maxDelay)
    }

    /// Sleeps `seconds` (at most a year, so the nanoseconds fit) in the current task; throws
    /// `CancellationError` when the task is cancelled.
    @usableFromInline static func taskSleep(_ seconds: TimeInterval) async throws {
        let bounded = min(max(0, seconds), 365 * 24 * 3600)
        try await Task.sleep(nanoseconds: UInt64(bounded * 1_000_000_000))
    }
}
