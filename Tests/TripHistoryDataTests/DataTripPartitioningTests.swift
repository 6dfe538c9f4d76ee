import Foundation
import Testing
import TripHistoryDataTestSupport
import TripHistoryDomain

@testable import TripHistoryData

/// A populated trips table is partitioned online (`TripTablePartitioner`): while
/// riders record, adjust and erase, every trip ends up in its year's partition exactly as the writes left it,
/// and no step queues reads behind a lock it waits for. Each test has a schema of its own.
@Suite struct DataTripPartitioningTests {
    /// Runs `body` on a new schema migrated up to 0007, filled with `trips` trips of riders
    /// `firstRider..<firstRider + 30` from January 2023 on (8 hours apart), and then migrated to the end (as a
    /// deployment from before 0008 is).
    private static func withPopulatedSchema(
        trips: Int, firstRider: Int64, _ body: (PostgresConnectionPool) async throws -> Void
    ) async throws {
        try await DataTestDatabase.withFreshSchema { (url: String, _: PostgresConnectionPool) async throws in
            let files = FileManager.default
            let before = files.temporaryDirectory.appendingPathComponent("migrations-before-0008-\(UUID())")
            try files.createDirectory(at: before, withIntermediateDirectories: true)
            defer { try? files.removeItem(at: before) }
            let all = DataTestDatabase.migrationsDirectory
            for name in try files.contentsOfDirectory(atPath: all.path) where name.hasSuffix(".sql") && name < "0008" {
                try files.copyItem(at: all.appendingPathComponent(name), to: before.appendingPathComponent(name))
            }
            let logger = DataTestDatabase.logger
            let pool = PostgresConnectionPool(configuration: .init(connectionString: url, size: 6), logger: logger)
            do {
                _ = try await MigrationRunner(pool: pool, directory: before, logger: logger).migrate()
                try await pool.withConnection { connection in
                    _ = try connection.query(
                        """
                        INSERT INTO trips (rider_id, status, product, city, time_zone, requested_at, started_at,
                            completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon,
                            dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency)
                        SELECT \(firstRider)::bigint + g % 30, 'completed', 'UberX', 'Paris', 'Europe/Paris', t, t, t,
                            48.85, 2.35, '1 Rue de Rivoli', 48.87, 2.29, 'Place Charles de Gaulle', 5200, 1200,
                            1850, 'EUR'
                        FROM generate_series(1, \(trips)) AS g,
                            LATERAL (SELECT timestamptz '2023-01-01 00:00:00+00' + g * interval '8 hours') AS x(t)
                        """)
                }
                _ = try await MigrationRunner(pool: pool, directory: all, logger: logger).migrate()
                try await body(pool)
                await pool.shutdown()
            } catch {
                await pool.shutdown()
                throw error
            }
        }
    }

    /// Every trip's id, version and tips, in id order.
    private static func tripRows(_ pool: PostgresConnectionPool) async throws -> [[Int64]] {
        try await pool.withConnection { connection in
            let rows = try connection.query("SELECT id, version, tips_minor FROM trips ORDER BY id")
            return try (0..<rows.count).map { row in
                try (0..<3).map { try rows.int64(row, $0) ?? -1 }
            }
        }
    }

    private static func isPartitioned(_ pool: PostgresConnectionPool) async throws -> Bool {
        try await pool.withConnection { try $0.executeFirst(TripsArePartitioned()) } == true
    }

    @Test func aPopulatedTableIsPartitionedWhileRidersWriteAndEveryWriteIsKept() async throws {
        let firstRider = DataTestDatabase.randomRiderID().rawValue
        try await Self.withPopulatedSchema(trips: 3000, firstRider: firstRider) { pool in
            #expect(try await !Self.isPartitioned(pool), "migrating does not partition")
            let before = try await Self.tripRows(pool)
            #expect(before.count == 3000)
            let repository = PostgresTripRepository(pool: pool)
            let recorder = RiderID(firstRider + 100)!
            let adjusted = RiderID(firstRider + 1)!
            let erased = RiderID(firstRider + 2)!
            let adjustedTrips = before.map { $0[0] }.filter { ($0 - 1) % 30 == 0 }.prefix(20).map { TripID($0)! }
            let erasedTrips = Set(before.map { $0[0] }.filter { ($0 - 2) % 30 == 0 })
            let done = ManagedAtomicFlag()

            // Writes of three riders all through the partitioning, and a few after it: trips of years no
            // partition exists for, tips on existing trips, and one erasure halfway.
            async let writes: (recorded: [Int64], tips: [Int64: Int64]) = {
                var recorded: [Int64] = []
                var tips: [Int64: Int64] = [:]
                var step = 0
                while !done.isSet || step < 60 {
                    let requested = Int64(1_420_070_400 + step * 86_400 * 40) * 1_000_000  // from 2015-01-01
                    let trip = try dataTestTrip(rider: recorder, requestedAtMicros: requested)
                    recorded.append(try await repository.record(trip, idempotency: nil).trip.id.rawValue)
                    let tripID = adjustedTrips[step % adjustedTrips.count]
                    _ = try await repository.adjust(
                        try NewAdjustment.requested(kind: .tip, amountMinor: 100, reason: "thanks"), tripID: tripID,
                        riderID: adjusted, expectedVersion: nil, idempotency: nil
                    ) { _ in }
                    tips[tripID.rawValue, default: 0] += 100
                    if step == 30 { _ = try await repository.erase(riderID: erased, requestedBy: "test") }
                    step += 1
                }
                return (recorded, tips)
            }()
            let outcome = try await TripTablePartitioner(pool: pool, batchSize: 100).partition()
            done.set()
            let (recorded, tips) = try await writes

            #expect(outcome.partitioned && outcome.copied >= 3000 - erasedTrips.count)
            #expect(try await Self.isPartitioned(pool))
            var expected = before.filter { !erasedTrips.contains($0[0]) }.map { row -> [Int64] in
                let tipped = tips[row[0]] ?? 0
                return [row[0], 1 + tipped / 100, tipped]
            }
            expected += recorded.map { [$0, 1, 0] }
            #expect(try await Self.tripRows(pool) == expected.sorted { $0[0] < $1[0] })

            // Each trip sits in its year's partition, years of the recorded trips included; the old table is
            // gone; a new trip's id follows every id before it.
            let misplaced = try await pool.withConnection { connection in
                try connection.query(
                    """
                    SELECT count(*) FROM trips
                    WHERE tableoid::regclass::text <> 'trips_y' || extract(year FROM requested_at AT TIME ZONE 'UTC')
                    """
                ).int64(0, 0)
            }
            #expect(misplaced == 0)
            let leftover = try await pool.withConnection { connection in
                try connection.query("SELECT to_regclass('trips_unpartitioned') IS NULL").bool(0, 0)
            }
            #expect(leftover == true)
            let next = try await repository.record(
                try dataTestTrip(rider: recorder, requestedAtMicros: 1_790_000_000_000_000), idempotency: nil)
            #expect(next.trip.id.rawValue > (expected.map { $0[0] }.max() ?? 0))
        }
    }

    /// The swap waits at most its lock timeout for a long reader, then gives up and tries again: a read that
    /// arrives meanwhile is not queued behind it until the long reader ends.
    @Test func theSwapGivesWayToReadsInsteadOfQueueingThem() async throws {
        let firstRider = DataTestDatabase.randomRiderID().rawValue
        try await Self.withPopulatedSchema(trips: 300, firstRider: firstRider) { pool in
            let url = pool.configuration.connectionString
            let longReader = try PostgresConnection(connectionString: url)
            try longReader.execute(unsafeSQL: "BEGIN")
            _ = try longReader.query("SELECT count(*) FROM trips")

            let partitioner = TripTablePartitioner(
                pool: pool, batchSize: 100, lockTimeout: .milliseconds(300), retryPause: .milliseconds(50))
            async let outcome = partitioner.partition()

            // Once the swap waits for its lock, a new read of trips still gets through while the long
            // reader holds on (its own statement_timeout turns a read queued for good into a failure).
            let observer = try PostgresConnection(connectionString: url)
            var waiting = false
            while !waiting {
                waiting =
                    try observer.query(
                        """
                        SELECT EXISTS (SELECT 1 FROM pg_locks
                            WHERE NOT granted AND mode = 'AccessExclusiveLock' AND relation = to_regclass('trips'))
                        """
                    ).bool(0, 0) == true
                if !waiting { try await Task.sleep(for: .milliseconds(10)) }
            }
            try observer.execute(unsafeSQL: "SET statement_timeout = '20s'")
            let read = try observer.query("SELECT count(*) FROM trips").int64(0, 0)
            #expect(read == 300)
            #expect(try await !Self.isPartitioned(pool), "the long reader still holds the swap off")

            try longReader.execute(unsafeSQL: "COMMIT")
            let result = try await outcome
            #expect(result.partitioned)
            #expect(result.lockRetries >= 1)
            #expect(try await Self.isPartitioned(pool))
            #expect(try observer.query("SELECT count(*) FROM trips").int64(0, 0) == 300)
        }
    }
}

/// A trip of any year the API accepts (0000 to 9999, year 0000 being 1 BC) creates its year's partition.
@Suite struct DataTripPartitionYearsTests {
    @Test func tripsOfTheFirstAndLastYearsTheAPIAcceptsGetTheirPartitions() async throws {
        try await DataTestDatabase.withMigratedFreshSchema { (pool: PostgresConnectionPool) async throws in
            let outcome = try await TripTablePartitioner(pool: pool).partition()
            #expect(outcome.partitioned && outcome.copied == 0, "an empty table is partitioned at once")
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let instants = ["0000-06-01T00:00:00Z", "0001-06-01T00:00:00Z", "9999-12-31T23:58:00Z"]
            let formatter = ISO8601DateFormatter()
            for instant in instants {
                let micros = Timestamp.micros(try #require(formatter.date(from: instant)))
                let recorded = try await repository.record(
                    try dataTestTrip(rider: rider, requestedAtMicros: micros), idempotency: nil)
                #expect(
                    try await repository.trip(id: recorded.trip.id, riderID: rider)?.details.requestedAt
                        == Timestamp.date(micros: micros))
            }
            let partitions = try await pool.withConnection { connection in
                try connection.query(
                    """
                    SELECT string_agg(tableoid::regclass::text, ',' ORDER BY requested_at) FROM trips
                    """
                ).string(0, 0)
            }
            #expect(partitions == #""trips_y-1",trips_y1,trips_y9999"#)
        }
    }

    /// The writers create a partition only for the error of a missing one, told by its SQLSTATE and the
    /// constraint it does not name, not by its message (which the server translates): a `CHECK` the row breaks
    /// is not taken for it.
    @Test func aMissingPartitionIsToldApartFromABrokenCheck() async throws {
        try await DataTestDatabase.withMigratedFreshSchema { (pool: PostgresConnectionPool) async throws in
            _ = try await TripTablePartitioner(pool: pool).partition()
            let insert: @Sendable (String, Int) -> PostgresQuery = { status, year in
                """
                INSERT INTO trips (rider_id, status, product, city, time_zone, requested_at, started_at,
                    completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon,
                    dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency)
                SELECT 1, \(status), 'UberX', 'Paris', 'Europe/Paris', t, t, t, 48.85, 2.35, 'a', 48.87, 2.29, 'b',
                    5200, 1200, 1850, 'EUR'
                FROM make_timestamptz(\(year), 6, 1, 0, 0, 0, 'UTC') AS t
                """
            }
            let missing = await #expect(throws: PostgresError.self) {
                try await pool.withConnection { _ = try $0.query(insert("completed", 1990)) }
            }
            #expect(missing?.sqlState == "23514")
            #expect(missing?.constraint == nil)
            #expect(missing?.isMissingPartition == true)
            try await pool.withConnection { try $0.execute(EnsureTripPartition(at: Date(timeIntervalSince1970: 0))) }
            let broken = await #expect(throws: PostgresError.self) {
                try await pool.withConnection { _ = try $0.query(insert("lost", 1970)) }
            }
            #expect(broken?.sqlState == "23514")
            #expect(broken?.constraint != nil)
            #expect(broken?.isMissingPartition == false)
        }
    }
}

/// A flag one task sets and another reads.
private final class ManagedAtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }

    func set() { lock.withLock { value = true } }
}
