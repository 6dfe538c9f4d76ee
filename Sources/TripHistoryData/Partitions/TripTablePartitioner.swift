public import Logging

/// Partitions the trips table by year while the service keeps serving it (at once when it is empty), as a
/// retention needs it: the partitioned twin and a trigger that mirrors every write into it, then the
/// rows copied in batches of `batchSize`, each its own short transaction, then the twin swapped in under the
/// old name. No step holds a lock that blocks reads or writes for longer than `lockTimeout`: a step that cannot
/// get its lock in that time gives up, so nothing queues behind it, and tries again after `retryPause`.
/// The old table is dropped after the swap. Run it again after an interruption: it goes on where it stopped.
public struct TripTablePartitioner: Sendable {
    /// What a run did.
    public struct Outcome: Hashable, Sendable {
        /// False when the table was partitioned already.
        public let partitioned: Bool
        /// Trips copied by the batches (writes during the copy reach the twin through the trigger).
        public let copied: Int
        /// Attempts at the steps that lock trips, past the first of each: each gave up after `lockTimeout`.
        public let lockRetries: Int
    }

    private let pool: PostgresConnectionPool
    private let batchSize: Int
    private let lockTimeout: Duration
    private let retryPause: Duration
    private let logger: Logger

    public init(
        pool: PostgresConnectionPool, batchSize: Int = 10_000, lockTimeout: Duration = .seconds(1),
        retryPause: Duration = .seconds(1), logger: Logger = Logger(label: "trip-history.partitioning")
    ) {
        self.pool = pool
        self.batchSize = batchSize
        self.lockTimeout = lockTimeout
        self.retryPause = retryPause
        self.logger = logger
    }

    /// Partitions the table unless it is already; `progress` receives the running count of copied trips.
    public func partition(progress: (@Sendable (Int) -> Void)? = nil) async throws -> Outcome {
        guard try await pool.withConnection({ try $0.executeFirst(TripsArePartitioned()) }) == false else {
            return Outcome(partitioned: false, copied: 0, lockRetries: 0)
        }
        var lockRetries = 0
        let twinExists = try await pool.withConnection { connection in
            try connection.query("SELECT to_regclass('trips_partitioned') IS NOT NULL").bool(0, 0) == true
        }
        if !twinExists {
            lockRetries += try await underLockTimeout("SELECT trips_partitioning_begin()")
            logger.info("partitioned twin created; copying trips", metadata: ["batch": "\(batchSize)"])
        }
        var copied = 0
        var after: Int64 = 0
        while true {
            let copy: PostgresQuery = "SELECT last_id, rows FROM trips_partitioning_copy(\(after), \(batchSize))"
            let (last, rows) = try await retryingConflicts {
                try await pool.withConnection { connection in
                    let batch = try connection.query(copy)
                    return (try batch.int64(0, 0), try batch.int64(0, 1) ?? 0)
                }
            }
            guard let last else { break }
            copied += Int(rows)
            after = last
            progress?(copied)
        }
        lockRetries += try await underLockTimeout("SELECT trips_partitioning_swap()")
        try await pool.withConnection { connection in
            // Autovacuum never analyzes a partitioned parent; the planner's estimates of the whole need it.
            try connection.withoutTimeouts { try connection.execute(unsafeSQL: "ANALYZE trips") }
        }
        lockRetries += try await underLockTimeout("DROP TABLE trips_unpartitioned")
        logger.info("trips partitioned by year", metadata: ["copied": "\(copied)", "lock_retries": "\(lockRetries)"])
        return Outcome(partitioned: true, copied: copied, lockRetries: lockRetries)
    }

    /// Runs `body` again when PostgreSQL ended it as a deadlock or a serialization failure: a copied batch
    /// rolls back whole, so running it again is safe.
    private func retryingConflicts<T>(_ body: () async throws -> T) async throws -> T {
        while true {
            do {
                return try await body()
            } catch let error as PostgresError where error.isSerializationFailure {
                logger.info("a batch met a conflicting write; copying it again", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Runs `sql` in a transaction whose locks wait at most `lockTimeout`, again after `retryPause` each
    /// time it gives up; returns how many times it gave up.
    private func underLockTimeout(_ sql: String) async throws -> Int {
        var retries = 0
        while true {
            do {
                try await pool.withConnection { connection in
                    try connection.transaction { connection in
                        try connection.execute(unsafeSQL: "SET LOCAL lock_timeout = \(lockTimeout.wholeMilliseconds)")
                        try connection.execute(unsafeSQL: sql)
                    }
                }
                return retries
            } catch let error as PostgresError where error.sqlState == "55P03" {
                retries += 1
                logger.info("a lock was busy; trying again", metadata: ["step": "\(sql)", "attempt": "\(retries + 1)"])
                try await Task.sleep(for: retryPause)
            }
        }
    }
}
