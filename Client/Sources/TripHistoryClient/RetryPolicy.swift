/// How the client repeats a request that failed recoverably (`TripHistoryError.isRecoverable`).
///
/// The wait before a repeat is the service's `Retry-After` when it sent one (`429`, `503`), else an
/// exponential backoff from `baseDelay`, at most `maxDelay`. A `Retry-After` longer than `maxDelay` is not
/// waited for: the error goes to the app, which can offer a retry.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included; 1 never repeats.
    public var maxAttempts: Int
    /// The first backoff delay; each further one doubles.
    public var baseDelay: Duration
    /// The longest wait before a repeat.
    public var maxDelay: Duration
    /// Waits; throws when the task is cancelled. Tests inject one that records instead of waiting.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// A policy; `sleep` defaults to `Task.sleep`.
    public init(
        maxAttempts: Int, baseDelay: Duration, maxDelay: Duration,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.sleep = sleep
    }

    /// Three repeats, from half a second, waiting at most 30 seconds.
    public static let standard = RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(500), maxDelay: .seconds(30))

    /// No repeats: every failure goes to the caller.
    public static let never = RetryPolicy(maxAttempts: 1, baseDelay: .zero, maxDelay: .zero)

    /// The wait before attempt number `attempt` (2 for the first repeat) after `error`; nil when the error is
    /// not recoverable, the attempts are used up, or the service asked for a longer wait than `maxDelay`.
    public func delay(before attempt: Int, after error: TripHistoryError) -> Duration? {
        guard error.isRecoverable, attempt <= maxAttempts, attempt >= 2 else { return nil }
        if let retryAfter = error.retryAfter {
            return retryAfter <= maxDelay ? retryAfter : nil
        }
        let backoff = baseDelay * (1 << min(attempt - 2, 20))
        return min(backoff, maxDelay)
    }
}
