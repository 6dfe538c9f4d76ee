public import Logging
public import ServiceLifecycle

/// Deletes rows older than their retention, in the background, so tables that only serve a while do not grow
/// forever: idempotency keys (a retry within the retention replays the first response; after it the same key
/// writes anew) and the changes feed (a `since` token older than the retention is refused, so older changes
/// are never read).
///
/// Deletes run in batches of `batchSize` rows, each its own short statement on a connection of the pool, every
/// `interval`, so no purge holds locks or a connection long. Each table's time column is indexed for it.
public struct ExpiredRowPurger: Service {
    /// A table and how long its rows are kept.
    public struct Expiry: Sendable {
        let table: String
        let timeColumn: String
        let retention: Duration
        /// Statements run with the deletion, as CTEs that read `deleted` (the deleted rows, `RETURNING *`).
        let bookkeeping: String?

        /// Idempotency keys, kept `retention` after their first use.
        public static func idempotencyKeys(_ retention: Duration) -> Expiry {
            Expiry(table: "idempotency_keys", timeColumn: "created_at", retention: retention, bookkeeping: nil)
        }

        /// Changes-feed entries, kept `retention` after they were written. Each deletion moves the feeds' purge
        /// marks (`rider_change_purges`, `analyst_change_purge`) past the entries it deletes, in the same
        /// statement, so a feed never answers a position behind them with a page that lacks them.
        public static func tripChanges(_ retention: Duration) -> Expiry {
            Expiry(
                table: "trip_changes", timeColumn: "changed_at", retention: retention,
                bookkeeping: """
                    riders AS (
                        INSERT INTO rider_change_purges AS p (rider_id, purged_through)
                        SELECT rider_id, max(seq) FROM deleted GROUP BY rider_id ORDER BY rider_id
                        ON CONFLICT (rider_id) DO UPDATE
                        SET purged_through = greatest(p.purged_through, EXCLUDED.purged_through)
                    ), analysts AS (
                        INSERT INTO analyst_change_purge AS p (xid, rider_id, seq)
                        SELECT xid, rider_id, seq FROM deleted WHERE xid IS NOT NULL
                        ORDER BY xid DESC, rider_id DESC, seq DESC LIMIT 1
                        ON CONFLICT (singleton) DO UPDATE SET xid = EXCLUDED.xid, rider_id = EXCLUDED.rider_id,
                            seq = EXCLUDED.seq
                        WHERE (EXCLUDED.xid, EXCLUDED.rider_id, EXCLUDED.seq) > (p.xid, p.rider_id, p.seq)
                    )
                    """)
        }
    }

    private let pool: PostgresConnectionPool
    private let expiries: [Expiry]
    private let interval: Duration
    private let batchSize: Int
    private let logger: Logger

    public init(
        pool: PostgresConnectionPool, expiries: [Expiry], interval: Duration = .seconds(600), batchSize: Int = 10_000,
        logger: Logger = Logger(label: "trip-history.retention")
    ) {
        self.pool = pool
        self.expiries = expiries
        self.interval = interval
        self.batchSize = batchSize
        self.logger = logger
    }

    /// Purges every `interval` until the service group shuts down; a failed purge is logged and retried at
    /// the next interval.
    public func run() async throws {
        await repeatUntilShutdown(every: interval) {
            for expiry in expiries {
                do {
                    let purged = try await purgeExpired(expiry)
                    if purged > 0 {
                        logger.info("purged expired rows", metadata: ["table": "\(expiry.table)", "rows": "\(purged)"])
                    }
                } catch {
                    logger.warning(
                        "purging expired rows failed", metadata: ["table": "\(expiry.table)", "error": "\(error)"])
                }
            }
        }
    }

    /// Deletes the rows of every table older than its retention now, and returns how many were deleted.
    @discardableResult
    public func purgeExpired() async throws -> Int {
        var total = 0
        for expiry in expiries { total += try await purgeExpired(expiry) }
        return total
    }

    /// Deletes one table's expired rows, batch by batch.
    private func purgeExpired(_ expiry: Expiry) async throws -> Int {
        let seconds = Int64(expiry.retention.components.seconds)
        let batch = Int64(batchSize)
        // The table and column names and the bookkeeping are this type's own constants, never input.
        let query: PostgresQuery = """
            WITH expired AS (
                SELECT ctid FROM \(unsafeSQL: expiry.table)
                WHERE \(unsafeSQL: expiry.timeColumn) < now() - make_interval(secs => \(seconds)) LIMIT \(batch)
            ), deleted AS (
                DELETE FROM \(unsafeSQL: expiry.table) t USING expired e WHERE t.ctid = e.ctid RETURNING t.*
            )\(unsafeSQL: expiry.bookkeeping.map { ", " + $0 } ?? "")
            SELECT 1 FROM deleted
            """
        var total = 0
        while true {
            let deleted = try await pool.withConnection { connection in try connection.query(query).count }
            total += deleted
            if deleted < batchSize { return total }
        }
    }
}
