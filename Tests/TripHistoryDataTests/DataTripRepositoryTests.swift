import Foundation
import Testing
import TripHistoryDataTestSupport
import TripHistoryDomain

@testable import TripHistoryData

@Suite struct DataTripRepositoryTests {
    private static let base: Int64 = 1_767_225_600_000_000  // 2026-01-01T00:00:00Z

    /// 70 trips: 25 share one request time, the rest spread with sub-second parts; every 4th is canceled.
    private func insertHistory(_ repository: PostgresTripRepository, rider: RiderID) async throws -> [Trip] {
        var trips: [Trip] = []
        for index in 0..<70 {
            let micros = index < 25 ? Self.base : Self.base + Int64(index - 30) * 3_600_000_000 + Int64(index) * 7
            let status: TripStatus = index % 4 == 0 ? .canceled : .completed
            let recorded = try await repository.record(
                dataTestTrip(rider: rider, requestedAtMicros: micros, status: status), idempotency: nil)
            trips.append(recorded.trip.listRow)
        }
        return trips
    }

    /// A range of `insertHistory`'s trips whose bounds sit exactly on stored request times, one of them the
    /// shared one.
    private func boundsOnStoredTimes(_ trips: [Trip]) throws -> DateRange {
        try DateRange(from: Timestamp.date(micros: Self.base), to: model(trips)[5].requestedAt)
    }

    private func model(_ trips: [Trip], _ filter: TripFilter = .all) -> [Trip] {
        trips.filter(filter.matches).sorted { TripKey($0) > TripKey($1) }
    }

    /// Walks every page down, then back up from the last page, through the domain use case.
    private func walk(
        _ repository: PostgresTripRepository, rider: RiderID, filter: TripFilter, limit: Int
    ) async throws -> (down: [Trip], up: [Trip]) {
        let list = ListRiderTrips(repository: repository)
        let grant = try AccessPolicy.read(riderID: rider, caller: .analyst(subject: "tests"))
        var down: [Trip] = []
        var page = try await list.execute(
            grant, filter: filter, limit: PageLimit(limit)!, position: nil)
        down += page.trips
        // A cursor that stopped moving forward would loop for ever: a page cap makes it a failure instead.
        let pageCap = 10_000 / limit + 2
        while let next = page.next {
            try #require(down.count / limit < pageCap, "the walk down did not end")
            page = try await list.execute(
                grant, filter: filter, limit: PageLimit(limit)!, position: next)
            down += page.trips
        }
        var upPages: [[Trip]] = [page.trips]
        while let previous = page.previous {
            try #require(upPages.count < pageCap, "the walk up did not end")
            page = try await list.execute(
                grant, filter: filter, limit: PageLimit(limit)!, position: previous)
            upPages.append(page.trips)
        }
        return (down, upPages.reversed().flatMap { $0 })
    }

    @Test func keysetWalkMatchesModelInBothDirections() async throws {
        try await DataTestDatabase.withPool { (pool: PostgresConnectionPool) async throws in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let trips = try await insertHistory(repository, rider: rider)
            for limit in [1, 7, 25, 100] {
                let (down, up) = try await walk(repository, rider: rider, filter: .all, limit: limit)
                #expect(down == model(trips), "limit \(limit) down")
                #expect(up == model(trips), "limit \(limit) up")
            }
        }
    }

    @Test func rangeIsFromInclusiveToExclusiveAndStatusFilters() async throws {
        try await DataTestDatabase.withPool { (pool: PostgresConnectionPool) async throws in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let trips = try await insertHistory(repository, rider: rider)
            let range = try boundsOnStoredTimes(trips)
            for status in [nil, TripStatus.completed, .canceled] {
                let filter = TripFilter(range: range, status: status)
                let expected = model(trips, filter)
                #expect(!expected.isEmpty)
                #expect(expected.contains { $0.requestedAt == range.from })
                #expect(!expected.contains { $0.requestedAt == range.to })
                let (down, up) = try await walk(repository, rider: rider, filter: filter, limit: 6)
                #expect(down == expected)
                #expect(up == expected)
            }
        }
    }

    @Test func concurrentInsertsNeverBreakAWalk() async throws {
        try await DataTestDatabase.withPool { (pool: PostgresConnectionPool) async throws in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let existing = model(try await insertHistory(repository, rider: rider))
            let list = ListRiderTrips(repository: repository)
            let grant = try AccessPolicy.read(riderID: rider, caller: .analyst(subject: "tests"))
            var seen: [Trip] = []
            var position: PagePosition? = nil
            var step: Int64 = 0
            repeat {
                let page = try await list.execute(
                    grant, filter: .all, limit: PageLimit(8)!, position: position)
                seen += page.trips
                position = page.next
                // Newer, older and tied trips appear while the walk is under way.
                for offset in [-step * 1_000_000_000, 0, step * 999_999_999 + 1] {
                    _ = try await repository.record(
                        dataTestTrip(rider: rider, requestedAtMicros: Self.base + offset), idempotency: nil)
                }
                step += 1
                try #require(step < 1_000, "the walk did not end")
            } while position != nil
            let keys = seen.map(TripKey.init)
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 > $1 }, "strictly newest first")
            let seenIDs = Dictionary(grouping: seen, by: \.id)
            for trip in existing {
                #expect(seenIDs[trip.id]?.count == 1, "trip \(trip.id) seen exactly once")
            }
        }
    }

    @Test func tripByIDBelongsToItsRiderOnly() async throws {
        try await DataTestDatabase.withPool { (pool: PostgresConnectionPool) async throws in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let other = DataTestDatabase.randomRiderID()
            let recorded = try await repository.record(
                dataTestTrip(rider: rider, requestedAtMicros: Self.base + 123_457, address: "5, \"Quoted\" Rd\\x"),
                idempotency: nil)
            #expect(recorded.replayed == false)
            #expect(try await repository.trip(id: recorded.trip.id, riderID: rider) == recorded.trip)
            #expect(try await repository.trip(id: recorded.trip.id, riderID: other) == nil)
            let canceled = try await repository.record(
                dataTestTrip(rider: rider, requestedAtMicros: Self.base, status: .canceled), idempotency: nil)
            #expect(try await repository.trip(id: canceled.trip.id, riderID: rider) == canceled.trip)
        }
    }

    @Test func databaseFailuresBecomeUnavailable() async throws {
        // A write that cannot get a lent connection in time.
        try await DataTestDatabase.withPool(size: 1, acquireTimeout: .milliseconds(100)) {
            (pool: PostgresConnectionPool) async throws in
            let repository = PostgresTripRepository(pool: pool)
            let release = DispatchSemaphore(value: 0)
            let blocker = Task { try await pool.withConnection { _ in release.wait() } }
            try await DataPoolTests.eventually { pool.counts.open == 1 && pool.counts.idle == 0 }
            // The blocker holds the only connection until released, so the write can only time out.
            await #expect(throws: TripHistoryError.unavailable(retryAfterSeconds: 1)) {
                try await repository.record(
                    dataTestTrip(rider: DataTestDatabase.randomRiderID(), requestedAtMicros: Self.base),
                    idempotency: nil
                )
            }
            release.signal()
            try await blocker.value
        }
        // Reads whose pipelined connection cannot be opened.
        let unreachable = PostgresConnectionPool(
            configuration: .init(connectionString: "postgresql://nobody@127.0.0.1:1/none"))
        let repository = PostgresTripRepository(pool: unreachable)
        let rider = DataTestDatabase.randomRiderID()
        await #expect(throws: TripHistoryError.unavailable(retryAfterSeconds: 1)) {
            try await repository.trip(id: TripID(1)!, riderID: rider)
        }
        await #expect(throws: TripHistoryError.unavailable(retryAfterSeconds: 1)) {
            try await repository.trips(
                matching: TripPageQuery(riderID: rider, filter: .all, position: nil, fetchLimit: 21))
        }
        await unreachable.shutdown()
    }

    /// The plan of the repository's own page statement, generic as a prepared statement's plan becomes, on a
    /// schema with many riders and fresh statistics: the shape the service meets in production. (On the shared
    /// test table, a handful of riders makes any plan look cheap, so the planner's choice would mean nothing.)
    @Test func deepPageIsAnIndexRangeScan() async throws {
        try await DataTestDatabase.withMigratedFreshSchema(size: 1) { (pool: PostgresConnectionPool) async throws in
            _ = try await TripSeeder(pool: pool, logger: DataTestDatabase.logger)
                .seed(riders: 2000, tripsPerRider: 20, seed: 3, progress: nil)
            let plan = try await pool.withConnection { connection in
                try connection.execute(unsafeSQL: "ANALYZE trips")
                try connection.execute(unsafeSQL: "PREPARE data_test_plan AS \(RiderTripsPage.older.sql)")
                try connection.execute(unsafeSQL: "SET plan_cache_mode = force_generic_plan")
                let rows = try connection.query(
                    "EXPLAIN EXECUTE data_test_plan (1, '-infinity', 'infinity', '2025-06-01 00:00:00+00', 99, '{completed,canceled}', 21)"
                )
                try connection.execute(unsafeSQL: "DEALLOCATE data_test_plan; RESET plan_cache_mode")
                return try (0..<rows.count).compactMap { try rows.string($0, 0) }.joined(separator: "\n")
            }
            #expect(plan.contains("Index Scan using trips_rider_history"), "\(plan)")
            #expect(!plan.contains("Sort"), "\(plan)")
            let condition = plan.split(separator: "\n").first { $0.contains("Index Cond:") } ?? ""
            #expect(
                condition.contains("rider_id = $1") && condition.contains("ROW(requested_at, id) < ROW"), "\(plan)")
        }
    }

    /// A first page of a past window starts its index scan at the window's end: the blocks it reads do not grow
    /// with the rider's newer trips. The key `KeysetStart` binds is compared with the open key a first page once
    /// bound (`infinity`), which walks every newer entry of the rider's index.
    @Test func aFirstPageOfAPastWindowStartsAtTheWindowsEnd() async throws {
        try await DataTestDatabase.withMigratedFreshSchema(size: 1) { (pool: PostgresConnectionPool) async throws in
            _ = try await TripSeeder(pool: pool, logger: DataTestDatabase.logger)
                .seed(riders: 1, tripsPerRider: 6000, seed: 5, progress: nil)
            // January 2025, near the start of the seeded two years: most of the rider's trips are newer.
            let from = "2025-01-01 00:00:00+00"
            let to = PostgresTimestampBound.micros(1_738_368_000_000_000)  // 2025-02-01T00:00:00Z
            let start = KeysetStart(after: nil, to: to)
            #expect(start.id == Int64.min && start.requestedAt == to)
            let blocks = { (key: String) async throws -> Int in
                try await pool.withConnection { connection in
                    try connection.execute(unsafeSQL: "VACUUM ANALYZE trips")
                    try connection.execute(unsafeSQL: "PREPARE data_test_start AS \(RiderTripsPage.older.sql)")
                    try connection.execute(unsafeSQL: "SET plan_cache_mode = force_generic_plan")
                    let explain = """
                        EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) EXECUTE data_test_start \
                        (1, '\(from)', '2025-02-01 00:00:00+00', \(key), '{completed,canceled}', 21)
                        """
                    let rows = try connection.query("\(unsafeSQL: explain)")
                    try connection.execute(unsafeSQL: "DEALLOCATE data_test_start; RESET plan_cache_mode")
                    let plan = try (0..<rows.count).compactMap { try rows.string($0, 0) }
                    #expect(plan.contains { $0.contains("Index Scan using trips_rider_history") }, "\(plan)")
                    let buffers = try #require(plan.first { $0.contains("Buffers: shared") }, "\(plan)")
                    return buffers.split(separator: " ").compactMap { word -> Int? in
                        guard let equals = word.firstIndex(of: "=") else { return nil }
                        return Int(word[word.index(after: equals)...])
                    }.reduce(0, +)
                }
            }
            let startingAtTheEnd = try await blocks("'2025-02-01 00:00:00+00', \(start.id)")
            let startingAtTheNewest = try await blocks("'infinity', \(Int64.max)")
            // The 21 trips' heap blocks and a few index blocks; the walk from the newest entry reads the index
            // blocks of the rider's trips after January 2025 on top (about 5,500 entries, some 25 leaf blocks).
            #expect(startingAtTheEnd <= 21 + 6, "blocks read from the window's end: \(startingAtTheEnd)")
            #expect(startingAtTheNewest >= startingAtTheEnd + 15, "from the newest: \(startingAtTheNewest)")
        }
    }

    @Test func anExactCountMatchesTheFilterWhateverPageIsRead() async throws {
        try await DataTestDatabase.withPool { (pool: PostgresConnectionPool) async throws in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let trips = try await insertHistory(repository, rider: rider)
            let range = try boundsOnStoredTimes(trips)
            for filter in [
                TripFilter.all, TripFilter(range: range, status: nil), TripFilter(range: range, status: .canceled),
            ] {
                let count = try await repository.count(riderID: rider, filter: filter, mode: .exact)
                #expect(count == TripCount(value: Int64(model(trips, filter).count), accuracy: .exact))
                // Through the use case, on a later page: the total is the filter's, not the page's.
                let list = ListRiderTrips(repository: repository)
                let owner = try AccessPolicy.read(riderID: rider, caller: .rider(rider))
                let first = try await list.execute(
                    owner, filter: filter, limit: PageLimit(3)!, position: nil, count: .exact)
                let second = try await list.execute(
                    owner, filter: filter, limit: PageLimit(3)!, position: first.next, count: .exact)
                #expect(first.total == count)
                #expect(second.total == count)
            }
            let none = try await repository.count(riderID: DataTestDatabase.randomRiderID(), filter: .all, mode: .exact)
            #expect(none == TripCount(value: 0, accuracy: .exact))
            let planned = try await repository.count(riderID: rider, filter: .all, mode: .planned)
            #expect(planned.accuracy == .planned)
            #expect(planned.value >= 1, "the planner never estimates fewer than one row")
        }
    }

    @Test func anExactCountPastTheLimitIsThePlannersEstimateAboveTheLimit() async throws {
        try await DataTestDatabase.withPool { (pool: PostgresConnectionPool) async throws in
            let repository = PostgresTripRepository(pool: pool)
            let rider = DataTestDatabase.randomRiderID()
            let first = try await repository.record(
                dataTestTrip(rider: rider, requestedAtMicros: Self.base, status: .completed), idempotency: nil)
            // The limit's worth of copies, a minute apart, written by the database itself, into the partitions
            // of the years they reach.
            try await pool.withConnection { connection in
                try connection.execute(
                    unsafeSQL: """
                        SELECT trips_ensure_partitions('trips', requested_at - \(TripCount.exactLimit) * interval '1 minute',
                            requested_at)
                        FROM trips WHERE id = \(first.trip.id.rawValue)
                        """)
                try connection.execute(
                    unsafeSQL: """
                        INSERT INTO trips (rider_id, status, product, city, time_zone, requested_at, started_at,
                            completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon,
                            dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency)
                        SELECT rider_id, status, product, city, time_zone, requested_at - g * interval '1 minute',
                            started_at - g * interval '1 minute', completed_at - g * interval '1 minute', pickup_lat,
                            pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m,
                            duration_s, fare_amount_minor, fare_currency
                        FROM trips CROSS JOIN generate_series(1, \(TripCount.exactLimit)) AS g
                        WHERE id = \(first.trip.id.rawValue)
                        """)
            }
            let count = try await repository.count(riderID: rider, filter: .all, mode: .exact)
            #expect(count.accuracy == .planned)
            #expect(count.value > TripCount.exactLimit)
            // One trip fewer is still counted exactly.
            let oneMinuteBefore = Timestamp.date(micros: Self.base - 60_000_000)
            let narrower = try await repository.count(
                riderID: rider,
                filter: TripFilter(
                    range: try DateRange(from: nil, to: oneMinuteBefore.addingTimeInterval(1)), status: nil),
                mode: .exact)
            #expect(narrower == TripCount(value: TripCount.exactLimit, accuracy: .exact))
        }
    }
}
