import Foundation
import HTTPTypes
import HummingbirdTesting
import MetricsTestKit
import NIOCore
import Testing
import TripHistoryAPI
import TripHistoryApp
import TripHistoryCache
import TripHistoryData
import TripHistoryDataTestSupport
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryHTTP
import TripHistoryTestSupport

/// Instances that read from a lagging streaming standby (`TRIP_HISTORY_TEST_READ_URL`, which scripts/test
/// starts with a 3 s apply delay) and write to its primary (`DATABASE_URL`), wired as the composition root
/// wires them: two pools, the routing, the lag sampler and the change listener.
@Suite struct ReplicaOnPostgresTests {
    typealias API = TestAPI<PostgresTripRepository>

    struct MissingReadURL: Error, CustomStringConvertible {
        var description: String {
            "TRIP_HISTORY_TEST_READ_URL is not set: the replica tests need a standby of DATABASE_URL (scripts/test starts one)"
        }
    }

    struct Instance: Sendable {
        let api: API
        let writer: PostgresConnectionPool
        let reader: PostgresConnectionPool
        let routing: PostgresReadRouting
        /// What the routing recorded: its decisions by reason and the barrier's time.
        let metrics: TestMetrics

        /// Reads of `read` routed to `target` because of `reason`, so far.
        func routed(_ read: String, to target: String, because reason: String) throws -> Int64 {
            try metrics.expectCounter(
                "trip_history_db_read_routing_total", [("read", read), ("target", target), ("reason", reason)]
            ).totalValue
        }
    }

    static func readURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["TRIP_HISTORY_TEST_READ_URL"], !url.isEmpty else {
            Issue.record(Comment(rawValue: MissingReadURL().description))
            throw MissingReadURL()
        }
        return url
    }

    /// Runs `body` with `count` instances, once each listens and the standby has replayed the migrated schema.
    /// With `sampledURL`, the lag sampler samples that server instead of the reader pool's (and `body` starts
    /// at once): as when a multi-host reader URL put the sampler's session on another node than the pool's.
    /// With `readerURL`, the reader pool connects there instead. With `strict`, the cache is fenced by the
    /// routing's change-feed barrier (strict coherence).
    private func withInstances(
        _ count: Int, cache: Bool = false, strict: Bool = false, sampledURL: String? = nil, readerURL: String? = nil,
        _ body: ([Instance]) async throws -> Void
    ) async throws {
        let readURL = try Self.readURL()
        try await DataTestDatabase.withPool(size: 2) { firstWriter in
            var instances: [Instance] = []
            var services: [Task<Void, any Error>] = []
            var pools: [PostgresConnectionPool] = []
            for index in 0..<count {
                let writer = index == 0 ? firstWriter : try await DataTestDatabase.makePool(size: 2)
                let reader = PostgresConnectionPool(
                    configuration: .init(connectionString: readerURL ?? readURL, size: 2),
                    logger: DataTestDatabase.logger)
                if index > 0 { pools.append(writer) }
                pools.append(reader)
                let metrics = TestMetrics()
                let routing = PostgresReadRouting(
                    writer: writer, reader: reader, metricsFactory: metrics, logger: DataTestDatabase.logger)
                let responses = cache ? TripResponseCache(startsSuspended: true) : nil
                let listener = PostgresChangeListener(
                    connectionString: try DataTestDatabase.connectionString(), logger: DataTestDatabase.logger,
                    onListening: {
                        routing.feedListening()
                        responses?.resume()
                    },
                    onDisconnected: {
                        routing.feedLost()
                        responses?.suspend()
                    },
                    onChange: { riderID in
                        if let riderID { responses?.invalidate(riderID) } else { responses?.invalidateAll() }
                    },
                    barrierChannel: routing.barrierChannel,
                    onCommitted: { routing.changeCommitted(riderID: $0, at: $1) },
                    onBarrier: { routing.barrierReceived($0) }
                )
                let sampler = ReplicaLagSampler(
                    writerConnectionString: try DataTestDatabase.connectionString(),
                    readerConnectionString: sampledURL ?? readURL,
                    routing: routing, interval: .milliseconds(50), logger: DataTestDatabase.logger)
                services.append(Task { try await listener.run() })
                services.append(Task { try await sampler.run() })
                let repository = PostgresTripRepository(pool: writer, reads: routing)
                instances.append(
                    Instance(
                        api: await TestAPI(
                            repository: repository,
                            settings: {
                                $0.cache = responses
                                $0.cacheFence = strict ? routing : nil
                            }),
                        writer: writer, reader: reader,
                        routing: routing, metrics: metrics))
            }
            do {
                for instance in instances {
                    if sampledURL == nil && readerURL == nil {
                        try await Self.untilReaderServes(instance)
                    } else {
                        try await Self.untilSampledAndListening(instance)
                    }
                }
                try await body(instances)
            } catch {
                await Self.stop(services, pools)
                throw error
            }
            await Self.stop(services, pools)
        }
    }

    private static func stop(_ services: [Task<Void, any Error>], _ pools: [PostgresConnectionPool]) async {
        for service in services { service.cancel() }
        for service in services { _ = try? await service.value }
        for pool in pools { await pool.shutdown() }
    }

    /// Reads an unwritten rider until a read is served by the reader: the standby has replayed the schema and
    /// the position at which the listener started. Polls for up to 60 s (the standby applies commits 3 s late).
    private static func untilReaderServes(_ instance: Instance) async throws {
        let rider = DataTestDatabase.randomRiderID()
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let before = instance.routing.statistics.readerReads
            if (try? await instance.api.repository.trips(matching: Self.firstPage(rider))) != nil,
                instance.routing.statistics.readerReads > before
            {
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the reader did not serve a read within 60 s")
        throw MissingReadURL()
    }

    /// Waits until the sampler has reported the reader up and the change feed passes its barrier, so routing
    /// would send reads to the reader; for up to 60 s.
    /// Also waits until the reader pool's server has replayed the migrated schema: on a fresh cluster a lagging
    /// standby may lack the tables for a while, and a read that fails there is no routing decision.
    private static func untilSampledAndListening(_ instance: Instance) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let hasSchema = try? await instance.reader.withConnection { connection in
                try connection.query("SELECT to_regclass('trip_changes') IS NOT NULL").bool(0, 0)
            }
            if hasSchema == true, instance.routing.isReaderUp, await instance.routing.awaitCurrent() { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the sampler, the change feed and the reader's schema were not ready within 60 s")
        throw MissingReadURL()
    }

    private static func firstPage(_ rider: RiderID) -> TripPageQuery {
        TripPageQuery(riderID: rider, filter: .all, position: nil, fetchLimit: 20)
    }

    private static func post(
        _ instance: Instance, rider: RiderID, minute: Int, headers: HTTPFields
    ) async throws
        -> String
    {
        let time = "2026-05-01T1\(minute / 60 % 10):\(minute % 60 < 10 ? "0" : "")\(minute % 60):00Z"
        let body = ByteBuffer(string: TripFixtures.recordBody(rider: rider, requestedAt: time))
        return try await instance.api.test { client in
            try await client.execute(uri: "/v1/trips", method: .post, headers: headers, body: body) { response in
                #expect(response.status == .created)
                return try #require(response.json().string("id"))
            }
        }
    }

    private static func list(_ instance: Instance, rider: RiderID, headers: HTTPFields) async throws -> [String] {
        try await instance.api.test { client in
            try await client.execute(uri: "/v1/riders/\(rider)/trips?limit=100", method: .get, headers: headers) {
                response in
                #expect(response.status == .ok)
                return response.json().tripIDs
            }
        }
    }

    @Test func readsAreServedByTheStandbyAndWritesByThePrimary() async throws {
        try await withInstances(1) { instances in
            let instance = instances[0]
            let inRecovery: @Sendable (PostgresConnection) throws -> Bool? = {
                try $0.query("SELECT pg_is_in_recovery()").bool(0, 0)
            }
            #expect(try await instance.reader.withConnection(inRecovery) == true)
            #expect(try await instance.writer.withConnection(inRecovery) == false)

            // A trip inserted on the primary without a notification: nothing tells the routing about it, so the
            // rider's reads stay on the standby, which shows it only once it has replayed the insert.
            let rider = DataTestDatabase.randomRiderID()
            let seed = try await instance.api.repository.record(
                dataTestTrip(rider: DataTestDatabase.randomRiderID(), requestedAtMicros: 1_780_000_000_000_000),
                idempotency: nil
            ).trip
            let unannounced = try #require(
                try await instance.writer.withConnection { connection in
                    try connection.query(
                        """
                        INSERT INTO trips (rider_id, status, product, city, time_zone, requested_at, started_at,
                            completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon,
                            dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency)
                        SELECT \(rider.rawValue)::bigint, status, product, city, time_zone, requested_at, started_at,
                            completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon,
                            dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency
                        FROM trips WHERE id = \(seed.id.rawValue)::bigint RETURNING id
                        """
                    ).int64(0, 0)
                }
            ).description
            let owner = API.bearer(try await instance.api.riderToken(rider.rawValue))
            let before = instance.routing.statistics
            let readyBefore = try instance.routed("rider", to: "reader", because: "replica_ready")
            let barrier = try instance.metrics.expectTimer("trip_history_db_barrier_seconds")
            let barriersBefore = barrier.values.count
            let first = try await Self.list(instance, rider: rider, headers: owner)
            #expect(instance.routing.statistics.readerReads == before.readerReads + 1)
            #expect(instance.routing.statistics.writerReads == before.writerReads)
            #expect(try instance.routed("rider", to: "reader", because: "replica_ready") == readyBefore + 1)
            #expect(barrier.values.count == barriersBefore + 1, "the rider read passed the change-feed barrier")
            // Replay only moves forward: if the standby still lacks the row now, it lacked it for the read too.
            let replayed = try await instance.reader.withConnection { connection in
                try connection.query("SELECT count(*) FROM trips WHERE id = \(unannounced)::bigint").int64(0, 0)
            }
            if replayed == 0 { #expect(first.isEmpty, "the read saw a row the standby did not have: not the standby") }

            var listed = first
            let deadline = ContinuousClock.now + .seconds(60)
            while !listed.contains(unannounced) && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
                listed = try await Self.list(instance, rider: rider, headers: owner)
            }
            #expect(listed == [unannounced])

            // A POST is written on the primary: the trip is there as soon as the 201 is in.
            let posted = try await Self.post(
                instance, rider: rider, minute: 1, headers: try await instance.api.recordHeaders())
            let onPrimary = try await instance.writer.withConnection { connection in
                try connection.query("SELECT count(*) FROM trips WHERE id = \(posted)::bigint").int64(0, 0)
            }
            #expect(onPrimary == 1)

            // Analyst reads go to the standby as well.
            let analyst = PostgresAnalystTripRepository(pool: instance.writer, reads: instance.routing)
            let day = Date(timeIntervalSince1970: 1_777_593_600)
            let filter = try AnalystTripFilter(
                range: try DateRange(from: day, to: day.addingTimeInterval(86_400)), riderID: rider)
            let beforeAnalyst = instance.routing.statistics
            _ = try await analyst.stats(matching: TripStatsQuery(filter: filter, granularity: .day, timeZone: "UTC"))
            #expect(instance.routing.statistics.readerReads == beforeAnalyst.readerReads + 1)
            #expect(instance.routing.statistics.writerReads == beforeAnalyst.writerReads)
            #expect(try instance.routed("analyst", to: "reader", because: "replica_ready") == 1)
        }
    }

    @Test func everyReadAfterAnAcknowledgedWriteOnAnyInstanceIncludesIt() async throws {
        try await withInstances(2) { instances in
            let riders = (0..<20).map { _ in DataTestDatabase.randomRiderID() }
            var owners: [RiderID: HTTPFields] = [:]
            for rider in riders { owners[rider] = API.bearer(try await instances[0].api.riderToken(rider.rawValue)) }
            let service = try await instances[0].api.recordHeaders()
            var missing: [String] = []
            for cycle in 0..<200 {
                let rider = riders[cycle % riders.count]
                let (writing, reading) = (instances[cycle % 2], instances[(cycle + 1) % 2])
                let id = try await Self.post(writing, rider: rider, minute: cycle, headers: service)
                let listed = try await Self.list(reading, rider: rider, headers: owners[rider]!)
                if !listed.contains(id) { missing.append("cycle \(cycle): trip \(id) of rider \(rider)") }
            }
            #expect(missing.isEmpty, "reads that missed the acknowledged trip: \(missing)")

            // Riders who wrote nothing are still read from the standby, on both instances.
            for instance in instances {
                let quiet = DataTestDatabase.randomRiderID()
                let owner = API.bearer(try await instance.api.riderToken(quiet.rawValue))
                let before = instance.routing.statistics
                for _ in 0..<5 { _ = try await Self.list(instance, rider: quiet, headers: owner) }
                #expect(instance.routing.statistics.readerReads == before.readerReads + 5)
                #expect(instance.routing.statistics.writerReads == before.writerReads)
            }
        }
    }

    /// Adjustments route reads like new trips: after a 201 on either instance, the detail read on the other
    /// shows the new version, though the standby applies commits seconds late; and the feed hands the change out.
    @Test func everyReadAfterAnAcknowledgedAdjustmentOnAnyInstanceIncludesIt() async throws {
        try await withInstances(2) { instances in
            let rider = DataTestDatabase.randomRiderID()
            let owner = API.bearer(try await instances[0].api.riderToken(rider.rawValue))
            let service = try await instances[0].api.recordHeaders()
            let id = try await Self.post(instances[0], rider: rider, minute: 0, headers: service)
            let since = try await instances[1].api.test { client in
                try await client.execute(uri: "/v1/riders/\(rider)/trips/changes", method: .get, headers: owner) {
                    try #require($0.json().string("page.next_since"))
                }
            }
            var stale: [String] = []
            for cycle in 0..<30 {
                let (writing, reading) = (instances[cycle % 2], instances[(cycle + 1) % 2])
                try await writing.api.test { client in
                    try await client.execute(
                        uri: "/v1/riders/\(rider)/trips/\(id)/adjustments", method: .post, headers: service,
                        body: ByteBuffer(
                            string: #"{"kind": "fare_correction", "amount_minor": 5, "reason": "missing toll"}"#)
                    ) { #expect($0.status == .created) }
                }
                let version = try await reading.api.test { client in
                    try await client.execute(uri: "/v1/riders/\(rider)/trips/\(id)", method: .get, headers: owner) {
                        $0.json()["version"] as? Int
                    }
                }
                if version != cycle + 2 { stale.append("cycle \(cycle): version \(version ?? 0)") }
            }
            #expect(stale.isEmpty, "reads that missed the acknowledged adjustment: \(stale)")
            let changed = try await instances[1].api.test { client in
                try await client.execute(
                    uri: "/v1/riders/\(rider)/trips/changes?since=\(since)", method: .get, headers: owner
                ) {
                    ($0.json()["data"] as? [[String: Any]])?.compactMap {
                        ($0["trip"] as? [String: Any])?["version"] as? Int
                    }
                }
            }
            #expect(changed == [31])
        }
    }

    /// An erasure on one instance, answered only once the lagging standby has replayed it: right after the
    /// 204 the other instance (strict coherence, its cache warm with the rider's pages) serves none of the
    /// rider's trips, an analyst read routed to the standby counts none, the standby holds none, and the
    /// feed reports each trip erased.
    @Test func afterAnErasureNoInstanceNorTheStandbyReturnsTheRidersTrips() async throws {
        try await withInstances(2, cache: true, strict: true) { instances in
            let rider = DataTestDatabase.randomRiderID()
            let owner = API.bearer(try await instances[0].api.riderToken(rider.rawValue))
            let service = try await instances[0].api.recordHeaders()
            var posted: [String] = []
            for minute in 0..<3 {
                posted.append(try await Self.post(instances[0], rider: rider, minute: minute, headers: service))
            }
            let ids = posted
            let since = try await instances[1].api.test { client in
                try await client.execute(uri: "/v1/riders/\(rider)/trips/changes", method: .get, headers: owner) {
                    try #require($0.json().string("page.next_since"))
                }
            }
            // Warm both caches with the list and a detail.
            for instance in instances {
                #expect(Set(try await Self.list(instance, rider: rider, headers: owner)) == Set(ids))
                try await instance.api.test { client in
                    try await client.execute(uri: "/v1/riders/\(rider)/trips/\(ids[0])", method: .get, headers: owner) {
                        #expect($0.status == .ok)
                    }
                }
            }
            // Wait until an analyst read on the standby sees the trips, so the erasure must reach it there.
            let analyst = PostgresAnalystTripRepository(pool: instances[1].writer, reads: instances[1].routing)
            let day = Date(timeIntervalSince1970: 1_777_593_600)
            let filter = try AnalystTripFilter(
                range: try DateRange(from: day, to: day.addingTimeInterval(86_400)), riderID: rider)
            let deadline = ContinuousClock.now + .seconds(60)
            while try await analyst.count(matching: filter, mode: .exact).value < 3 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(try await analyst.count(matching: filter, mode: .exact).value == 3)

            let privacy = API.bearer(try await instances[0].api.privacyToken())
            try await instances[0].api.test { client in
                try await client.execute(uri: "/v1/riders/\(rider)", method: .delete, headers: privacy) {
                    #expect($0.status == .noContent)
                }
            }
            let readsBefore = instances[1].routing.statistics.readerReads
            #expect(try await analyst.count(matching: filter, mode: .exact).value == 0)
            #expect(instances[1].routing.statistics.readerReads == readsBefore + 1, "the count was read on the standby")
            let onStandby = try await instances[1].reader.withConnection { connection in
                try connection.query("SELECT count(*) FROM trips WHERE rider_id = \(rider.rawValue)::bigint").int64(
                    0, 0)
            }
            #expect(onStandby == 0)
            for instance in instances {
                #expect(try await Self.list(instance, rider: rider, headers: owner).isEmpty)
                try await instance.api.test { client in
                    try await client.execute(uri: "/v1/riders/\(rider)/trips/\(ids[0])", method: .get, headers: owner) {
                        #expect($0.status == .notFound)
                    }
                }
            }
            let erased = try await instances[1].api.test { client in
                try await client.execute(
                    uri: "/v1/riders/\(rider)/trips/changes?since=\(since)", method: .get, headers: owner
                ) { response in
                    (response.json()["data"] as? [[String: Any]])?.filter { $0["change"] as? String == "erased" }
                        .compactMap { $0["id"] as? String }
                }
            }
            #expect(Set(erased ?? []) == Set(ids))
        }
    }

    /// After a failover, the sampler's session can sit on the new primary (which has "replayed everything")
    /// while the reader pool's connections are on the old primary rejoining as a lagging standby: every read
    /// after an acknowledged write still has it, and none is served by the lagging node.
    @Test func readsIncludeAcknowledgedWritesWhenTheSamplerIsOnAnotherNodeThanTheReaderPool() async throws {
        try await withInstances(1, sampledURL: try DataTestDatabase.connectionString()) { instances in
            let instance = instances[0]
            let service = try await instance.api.recordHeaders()
            var missing: [String] = []
            for cycle in 0..<10 {
                let rider = DataTestDatabase.randomRiderID()
                let owner = API.bearer(try await instance.api.riderToken(rider.rawValue))
                let id = try await Self.post(instance, rider: rider, minute: cycle, headers: service)
                let listed = try await Self.list(instance, rider: rider, headers: owner)
                if !listed.contains(id) { missing.append("cycle \(cycle): trip \(id) of rider \(rider)") }
            }
            #expect(missing.isEmpty, "reads that missed the acknowledged trip: \(missing)")
            // The sampler sees a primary, so no rider read was sent to the reader.
            #expect(try instance.routed("rider", to: "writer", because: "reader_not_standby") == 10)
            #expect(try instance.routed("rider", to: "reader", because: "replica_ready") == 0)
        }
    }

    /// Two standbys: the sampler on one that replays at once, the reader pool on one 3 s behind, as several
    /// hosts in a reader URL can place them. The sample soon drops the rider's requirement, yet each read
    /// right after the write must include the trip: the lagging connection must have replayed what the
    /// sample saw, so it refuses the read and the writer serves it.
    @Test func aReaderConnectionBehindTheSampledStandbyNeverServesARead() async throws {
        guard let caughtUp = ProcessInfo.processInfo.environment["TRIP_HISTORY_TEST_SECOND_READ_URL"], !caughtUp.isEmpty
        else {
            Issue.record(
                "TRIP_HISTORY_TEST_SECOND_READ_URL is not set: this test needs the second standby scripts/test starts")
            return
        }
        try await withInstances(1, sampledURL: caughtUp) { instance in
            let instance = instance[0]
            let service = try await instance.api.recordHeaders()
            var missing: [String] = []
            for cycle in 0..<5 {
                let rider = DataTestDatabase.randomRiderID()
                let owner = API.bearer(try await instance.api.riderToken(rider.rawValue))
                let id = try await Self.post(instance, rider: rider, minute: cycle, headers: service)
                // Long enough for the caught-up standby's sample to pass the rider's requirement, far shorter
                // than the lagging standby's delay.
                for _ in 0..<4 {
                    try await Task.sleep(for: .milliseconds(250))
                    let listed = try await Self.list(instance, rider: rider, headers: owner)
                    if !listed.contains(id) { missing.append("cycle \(cycle): trip \(id) of rider \(rider)") }
                }
            }
            // A loaded machine may have sent every read above to the writer on the sample alone; then more reads
            // of a rider whose trip the lagging standby still lacks, until the sample lets one through.
            let rider = DataTestDatabase.randomRiderID()
            let owner = API.bearer(try await instance.api.riderToken(rider.rawValue))
            let id = try await Self.post(instance, rider: rider, minute: 59, headers: service)
            let deadline = ContinuousClock.now + .seconds(2)
            while try instance.routed("rider", to: "writer", because: "reader_behind") == 0,
                ContinuousClock.now < deadline
            {
                let listed = try await Self.list(instance, rider: rider, headers: owner)
                if !listed.contains(id) { missing.append("late read: trip \(id) of rider \(rider)") }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(missing.isEmpty, "reads that missed the acknowledged trip: \(missing)")
            #expect(
                try instance.routed("rider", to: "writer", because: "reader_behind") > 0,
                "the lagging connection refused reads the sample had let through")
        }
    }

    /// The same split for analysts: an erasure returns once the sampled (caught-up) standby has replayed it,
    /// while the reader pool sits on a standby 3 s behind that still holds the rider's trips. An analyst read
    /// right after the erasure must not show them: the lagging connection refuses it and the writer serves it.
    @Test func anAnalystReadRightAfterAnErasureNeverComesFromAStandbyThatHasNotReplayedIt() async throws {
        guard let caughtUp = ProcessInfo.processInfo.environment["TRIP_HISTORY_TEST_SECOND_READ_URL"], !caughtUp.isEmpty
        else {
            Issue.record(
                "TRIP_HISTORY_TEST_SECOND_READ_URL is not set: this test needs the second standby scripts/test starts")
            return
        }
        try await withInstances(1, sampledURL: caughtUp) { instances in
            let instance = instances[0]
            let rider = DataTestDatabase.randomRiderID()
            let service = try await instance.api.recordHeaders()
            for minute in 0..<3 { _ = try await Self.post(instance, rider: rider, minute: minute, headers: service) }
            let onLagging: @Sendable () async throws -> Int64? = {
                try await instance.reader.withConnection { connection in
                    try connection.query("SELECT count(*) FROM trips WHERE rider_id = \(rider.rawValue)::bigint")
                        .int64(0, 0)
                }
            }
            // The lagging standby may not even have replayed the schema yet on a fresh cluster.
            let deadline = ContinuousClock.now + .seconds(60)
            while (try? await onLagging()) != 3 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            let analyst = PostgresAnalystTripRepository(pool: instance.writer, reads: instance.routing)
            let day = Date(timeIntervalSince1970: 1_777_593_600)
            let filter = try AnalystTripFilter(
                range: try DateRange(from: day, to: day.addingTimeInterval(86_400)), riderID: rider)
            #expect(try await analyst.count(matching: filter, mode: .exact).value == 3)
            let behindBefore = try instance.routed("analyst", to: "writer", because: "reader_behind")

            let privacy = API.bearer(try await instance.api.privacyToken())
            try await instance.api.test { client in
                try await client.execute(uri: "/v1/riders/\(rider)", method: .delete, headers: privacy) {
                    #expect($0.status == .noContent)
                }
            }
            #expect(try await analyst.count(matching: filter, mode: .exact).value == 0)
            let page = try await analyst.trips(
                matching: AnalystTripQuery(filter: filter, position: nil, fetchLimit: 10))
            #expect(page.isEmpty)
            #expect(try await onLagging() == 3, "the lagging standby had not replayed the erasure yet")
            #expect(try instance.routed("analyst", to: "writer", because: "reader_behind") >= behindBefore + 2)
        }
    }

    /// The opposite split: the sampler on the standby opens the way to the reader, whose pool is on a primary
    /// (not a standby at all). The serving connection's own check refuses each read, which the writer then
    /// serves, without the reader's requirement.
    @Test func readsTheReaderConnectionRefusesAreServedByTheWriter() async throws {
        try await withInstances(1, readerURL: try DataTestDatabase.connectionString()) { instances in
            let instance = instances[0]
            let rider = DataTestDatabase.randomRiderID()
            let owner = API.bearer(try await instance.api.riderToken(rider.rawValue))
            let id = try await Self.post(
                instance, rider: rider, minute: 0, headers: try await instance.api.recordHeaders())
            // Once the standby has replayed the trip, the sample lets the rider's reads go to the reader.
            let deadline = ContinuousClock.now + .seconds(60)
            while try instance.routed("rider", to: "reader", because: "replica_ready") == 0 {
                guard ContinuousClock.now < deadline else {
                    Issue.record("no read was ever sent to the reader")
                    return
                }
                try await Task.sleep(for: .milliseconds(50))
                #expect(try await Self.list(instance, rider: rider, headers: owner) == [id])
            }
            let behind = try instance.routed("rider", to: "writer", because: "reader_behind")
            #expect(behind >= 1, "the reader connection, on a primary, refused the read")
            for _ in 0..<5 {
                #expect(try await Self.list(instance, rider: rider, headers: owner) == [id])
            }
            #expect(try instance.routed("rider", to: "writer", because: "reader_behind") == behind + 5)
        }
    }

    @Test func aCachedResponseIsNotServedAfterAWriteAndItsReplacementComesFromThePrimary() async throws {
        try await withInstances(2, cache: true) { instances in
            let (writing, reading) = (instances[0], instances[1])
            let rider = DataTestDatabase.randomRiderID()
            let owner = API.bearer(try await reading.api.riderToken(rider.rawValue))
            let before = reading.routing.statistics
            #expect(try await Self.list(reading, rider: rider, headers: owner).isEmpty)
            #expect(try await Self.list(reading, rider: rider, headers: owner).isEmpty)
            // Computed once on the standby, then served from the cache.
            #expect(reading.routing.statistics.readerReads == before.readerReads + 1)

            let id = try await Self.post(
                writing, rider: rider, minute: 0, headers: try await writing.api.recordHeaders())
            // The barrier of the next computed read waits for this instance's listener; until the notification
            // arrives a cached page may still be served, so poll (the bound is the notification's delivery).
            var listed: [String] = []
            let deadline = ContinuousClock.now + .seconds(10)
            while !listed.contains(id) && ContinuousClock.now < deadline {
                listed = try await Self.list(reading, rider: rider, headers: owner)
            }
            #expect(listed == [id])
            // The standby applies the commit seconds later, so the page that has the trip came from the primary.
            #expect(reading.routing.statistics.writerReads > before.writerReads)
        }
    }
}
