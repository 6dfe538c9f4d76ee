public import Foundation
public import Logging
import TripHistoryDomain

/// Loads deterministic, realistic demo trips for riders `1...riders` with `COPY ... FROM STDIN`.
///
/// The same `seed` always writes the same rows (ids aside): eight cities with their own zones, currencies
/// (JPY has no minor unit), prices and streets; about 5% canceled trips; request times spread over the two
/// years before `windowEnd`, with some riders' trips sharing a request time; tips on about a third of the
/// completed trips and refunds on about 1%, in the ledger too; and for every trip with a fare a receipt:
/// the fare's breakdown, a payment, a driver and car, and for a completed trip a route from pickup to dropoff. Rows are streamed in 1 MiB
/// chunks, so memory stays flat whatever the count; `SeedDistribution` gives every rider the same count or a
/// heavy-tailed one. Seeding riders that already have trips replaces them:
/// their old trips (with their receipts, ledgers and idempotency keys) are deleted in the same transaction as
/// the load, and the years the load spans get their partitions.
public struct TripSeeder: Sendable {
    /// The default end of the seeded window, fixed so that a seed means the same rows on every day.
    public static let defaultWindowEnd = Date(timeIntervalSince1970: 1_793_491_200)  // 2026-11-01T00:00:00Z

    private let pool: PostgresConnectionPool
    private let windowEnd: Date
    private let logger: Logger

    public init(pool: PostgresConnectionPool, windowEnd: Date = TripSeeder.defaultWindowEnd, logger: Logger) {
        self.pool = pool
        self.windowEnd = windowEnd
        self.logger = logger
    }

    /// The COPY column list of the seeded rows, in the order `writeCopyFile` writes them; `psql` loads such a
    /// file with `\copy trips (<copyColumns>) FROM 'file'`.
    public static let copyColumns = """
        rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, \
        pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, \
        distance_m, duration_s, fare_amount_minor, fare_currency, \
        version, recorded_at, updated_at, tips_minor, refunds_minor
        """

    /// Bytes handed to libpq (or the file) at a time: large enough to amortize calls, small enough to stay flat.
    static let chunkBytes = 1 << 20

    /// Replaces the trips of riders `1...riders` with `tripsPerRider` generated trips each, in one
    /// transaction, and returns the rows written. `progress` receives the running row count after each chunk,
    /// on the pool's thread. Throws `PostgresError` / `PostgresPoolError` when the load fails; then nothing
    /// changed.
    public func seed(
        riders: Int, tripsPerRider: Int, seed: UInt64, progress: (@Sendable (Int) -> Void)?
    ) async throws -> Int {
        guard riders > 0, tripsPerRider > 0 else { return 0 }
        return try await self.seed(
            riders: 1...riders, distribution: .uniform(tripsPerRider: tripsPerRider), seed: seed, progress: progress
        )
    }

    /// Replaces the trips of `riders` with generated ones, as many per rider as `distribution` says, in one
    /// transaction, and returns the rows written. Rows stream through `COPY` in 1 MiB chunks, so memory stays
    /// flat at any size. `progress` receives the running row count after each chunk, on the pool's thread.
    /// Throws `PostgresError` / `PostgresPoolError` when the load fails; then nothing changed.
    public func seed(
        riders: ClosedRange<Int>, distribution: SeedDistribution, seed: UInt64, progress: (@Sendable (Int) -> Void)?
    ) async throws -> Int {
        guard riders.lowerBound > 0 else { return 0 }
        let windowEndMicros = self.windowEndMicros
        let written = try await pool.withConnection { connection in
            // No statement timeout, so no client-side query timeout either.
            try connection.withQueryTimeout(nil) {
                try connection.transaction { connection in
                    // Loading a million rows takes longer than the request timeout allows.
                    try connection.execute(unsafeSQL: "SET LOCAL statement_timeout = 0")
                    try connection.query(
                        """
                        WITH gone AS (
                            DELETE FROM trips WHERE rider_id BETWEEN \(riders.lowerBound) AND \(riders.upperBound)
                            RETURNING id
                        ), \(unsafeSQL: TripStatements.partsDeletion(of: "gone"))
                        SELECT count(*) FROM gone
                        """
                    )
                    let windowStart = Timestamp.date(micros: windowEndMicros - SeedTripGenerator.window)
                    try connection.query(
                        "SELECT trips_ensure_partitions('trips', \(windowStart)::timestamptz, \(Timestamp.date(micros: windowEndMicros))::timestamptz)"
                    )
                    var generator = SeedTripGenerator(
                        riders: riders, distribution: distribution, seed: seed, windowEndMicros: windowEndMicros
                    )
                    let rows = try connection.copyIn(unsafeSQL: "COPY trips (\(Self.copyColumns)) FROM STDIN") {
                        buffer in
                        let more = generator.fill(&buffer, chunkBytes: Self.chunkBytes)
                        progress?(generator.rowsWritten)
                        return more
                    }
                    try SeedReceipts.write(riders: riders, on: connection)
                    return rows
                }
            }
        }
        logger.info("seeded trips", metadata: ["rows": "\(written)", "riders": "\(riders)"])
        return written
    }

    /// Writes the rows `seed(riders:distribution:seed:progress:)` would load, in COPY text format, to the file
    /// at `path` (created or truncated), and returns their count. For comparing the seeder with `psql \copy`.
    public static func writeCopyFile(
        path: String, riders: ClosedRange<Int>, distribution: SeedDistribution, seed: UInt64,
        windowEnd: Date = TripSeeder.defaultWindowEnd
    ) throws -> Int {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        defer { try? handle.close() }
        var generator = SeedTripGenerator(
            riders: riders, distribution: distribution, seed: seed,
            windowEndMicros: Int64(windowEnd.timeIntervalSince1970) * 1_000_000
        )
        var buffer: [UInt8] = []
        buffer.reserveCapacity(chunkBytes + 4096)
        var more = riders.lowerBound > 0
        while more {
            buffer.removeAll(keepingCapacity: true)
            more = generator.fill(&buffer, chunkBytes: chunkBytes)
            try handle.write(contentsOf: buffer)
        }
        return generator.rowsWritten
    }

    private var windowEndMicros: Int64 { Int64(windowEnd.timeIntervalSince1970) * 1_000_000 }
}
