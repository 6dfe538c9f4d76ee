public import Logging
public import ServiceLifecycle

/// Deletes idempotency keys older than `retention`, in the background, so the table does not grow forever.
///
/// A key is remembered for at least `retention`: a retry within it replays the first response; after it is
/// purged the same key records a new trip. Deletes run in batches of `batchSize` rows, each its own short
/// statement on a connection of the pool, every `interval`, so no purge holds locks or a connection long.
public struct IdempotencyKeyPurger: Service {
    private let pool: PostgresConnectionPool
    private let retention: Duration
    private let interval: Duration
    private let batchSize: Int
    private let logger: Logger

    public init(
        pool: PostgresConnectionPool, retention: Duration = .seconds(24 * 3600), interval: Duration = .seconds(600),
        batchSize: Int = 10_000, logger: Logger = Logger(label: "trip-history.idempotency")
    ) {
        self.pool = pool
        self.retention = retention
        self.interval = interval
        self.batchSize = batchSize
        self.logger = logger
    }

    /// Purges every `interval` until the service group shuts down; a failed purge is logged and retried at
    /// the next interval.
    public func run() async throws {
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            do {
                let purged = try await purgeExpired()
                if purged > 0 { logger.info("purged expired idempotency keys", metadata: ["keys": "\(purged)"]) }
            } catch {
                logger.warning("purging expired idempotency keys failed", metadata: ["error": "\(error)"])
            }
            try? await gracefulShutdownAware(sleep: interval)
        }
    }

    /// Deletes the keys older than the retention now, batch by batch, and returns how many were deleted.
    @discardableResult
    public func purgeExpired() async throws -> Int {
        let seconds = Int64(retention.components.seconds)
        let batch = Int64(batchSize)
        var total = 0
        while true {
            let deleted = try await pool.withConnection { connection in
                try connection.query(
                    """
                    WITH expired AS (
                        SELECT scope, key FROM idempotency_keys
                        WHERE created_at < now() - make_interval(secs => \(seconds)) LIMIT \(batch)
                    )
                    DELETE FROM idempotency_keys k USING expired e WHERE k.scope = e.scope AND k.key = e.key
                    RETURNING 1
                    """
                ).count
            }
            total += deleted
            if deleted < batchSize { return total }
        }
    }

    private func gracefulShutdownAware(sleep duration: Duration) async throws {
        try await cancelWhenGracefulShutdown {
            try await Task.sleep(for: duration)
        }
    }
}
