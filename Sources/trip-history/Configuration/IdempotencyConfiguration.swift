import ArgumentParser

/// How long idempotency keys are remembered, read from the environment:
///
/// - `TRIP_HISTORY_IDEMPOTENCY_RETENTION_HOURS`: hours a key is kept before the background purge deletes it
///   (default 24); a retry within it replays the first response.
struct IdempotencyConfiguration: Sendable {
    var retention: Duration = .seconds(24 * 3600)

    /// The default, overridden by the variable when set. Throws on a value that is not a positive integer.
    static func load(environment: [String: String]) throws -> IdempotencyConfiguration {
        var configuration = IdempotencyConfiguration()
        if let text = environment["TRIP_HISTORY_IDEMPOTENCY_RETENTION_HOURS"] {
            guard let hours = Int(text), hours > 0, hours <= 24 * 366 else {
                throw ValidationError(
                    "TRIP_HISTORY_IDEMPOTENCY_RETENTION_HOURS must be a whole number of hours from 1 to 8784.")
            }
            configuration.retention = .seconds(hours * 3600)
        }
        return configuration
    }
}
