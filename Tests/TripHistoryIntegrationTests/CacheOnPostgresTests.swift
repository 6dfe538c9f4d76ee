import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Synchronization
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

/// Instances with their own response caches on one PostgreSQL database, kept coherent by the change listener.
@Suite struct CacheOnPostgresTests {
    typealias API = TestAPI<PostgresTripRepository>

    private static let serverTiming = HTTPField.Name("Server-Timing")!

    /// One service instance: its pool, cache and change listener, and how often the listener connected or lost
    /// its connection.
    struct Instance: Sendable {
        let api: API
        let pool: PostgresConnectionPool
        let cache: TripResponseCache
        let applicationName: String
        let listens: Events
        let drops: Events
        let announced: Announcements
    }

    /// How many changes of each rider a listener has passed to its cache.
    final class Announcements: Sendable {
        private let counts = Mutex([RiderID: Int]())
        func record(_ rider: RiderID) { counts.withLock { $0[rider, default: 0] += 1 } }
        func count(_ rider: RiderID) -> Int { counts.withLock { $0[rider] ?? 0 } }
    }

    final class Events: Sendable {
        private let value = Mutex(0)
        var count: Int { value.withLock { $0 } }
        func record() { value.withLock { $0 += 1 } }
    }

    /// Runs `body` with two instances, each with its own pool, cache and listener, wired as the composition
    /// root wires them (in strict coherence, each with its routing's change-feed barrier as the cache's fence);
    /// returns once both listeners listen.
    private func withInstances(strict: Bool = false, _ body: ([Instance]) async throws -> Void) async throws {
        try await DataTestDatabase.withPool(size: 2) { firstPool in
            let secondPool = try await DataTestDatabase.makePool(size: 2)
            var instances: [Instance] = []
            var listeners: [Task<Void, any Error>] = []
            for pool in [firstPool, secondPool] {
                let cache = TripResponseCache(startsSuspended: true)
                let applicationName = "trip-history-test-listener-\(UInt32.random(in: 0...UInt32.max))"
                let listens = Events()
                let drops = Events()
                let announced = Announcements()
                let (routing, fence, onBarrier) = Self.fence(pool: pool, strict: strict)
                let listener = PostgresChangeListener(
                    connectionString: try DataTestDatabase.connectionString(), applicationName: applicationName,
                    logger: DataTestDatabase.logger,
                    onListening: {
                        routing.feedListening()
                        cache.resume()
                        listens.record()
                    },
                    onDisconnected: {
                        routing.feedLost()
                        cache.suspend()
                        drops.record()
                    },
                    onChange: { riderID in
                        if let riderID { cache.invalidate(riderID) } else { cache.invalidateAll() }
                        if let riderID { announced.record(riderID) }
                    },
                    barrierChannel: strict ? routing.barrierChannel : nil,
                    onBarrier: onBarrier
                )
                listeners.append(Task { try await listener.run() })
                let api = await TestAPI(
                    repository: PostgresTripRepository(pool: pool),
                    settings: {
                        $0.cache = cache
                        $0.cacheFence = fence
                    })
                instances.append(
                    Instance(
                        api: api, pool: pool, cache: cache, applicationName: applicationName, listens: listens,
                        drops: drops, announced: announced))
            }
            do {
                for instance in instances {
                    try await Self.eventually("the listener listens") { instance.listens.count == 1 }
                }
                try await body(instances)
            } catch {
                for listener in listeners { listener.cancel() }
                for listener in listeners { _ = try? await listener.value }
                await secondPool.shutdown()
                throw error
            }
            for listener in listeners { listener.cancel() }
            for listener in listeners { _ = try? await listener.value }
            await secondPool.shutdown()
        }
    }

    /// The routing whose change-feed barrier is the cache's fence in strict coherence; the fence and the
    /// listener's barrier handler are nil otherwise.
    private static func fence(
        pool: PostgresConnectionPool, strict: Bool
    ) -> (PostgresReadRouting, (any ChangeFeedFence)?, (@Sendable (String) -> Void)?) {
        let routing = PostgresReadRouting(writer: pool, reader: nil, fencesChanges: strict)
        guard strict else { return (routing, nil, nil) }
        return (routing, routing, { routing.barrierReceived($0) })
    }

    private static func postBody(rider: RiderID, minute: Int) -> ByteBuffer {
        let time = "2026-05-01T10:\(minute < 10 ? "0" : "")\(minute):00Z"
        return ByteBuffer(string: TripFixtures.recordBody(rider: rider, requestedAt: time))
    }

    /// Reads the list twice so the second read comes from the cache; returns the ids.
    private static func warm(_ instance: Instance, rider: RiderID, headers: HTTPFields) async throws -> [String] {
        try await instance.api.test { client in
            _ = try await client.execute(uri: "/v1/riders/\(rider)/trips", method: .get, headers: headers) { $0.status }
            return try await client.execute(uri: "/v1/riders/\(rider)/trips", method: .get, headers: headers) {
                response in
                #expect(response.headers[Self.serverTiming] == "cache;desc=hit")
                return response.json().tripIDs
            }
        }
    }

    /// Polls `instance`'s list until it shows `id`; records a failure after 200 polls 10 ms apart (2 s).
    private static func expectEventuallyListed(
        _ id: String, on instance: Instance, rider: RiderID, headers: HTTPFields
    ) async throws {
        let (found, polls) = try await instance.api.test { client in
            var polls = 0
            var found = false
            while !found && polls < 200 {
                polls += 1
                found = try await client.execute(uri: "/v1/riders/\(rider)/trips", method: .get, headers: headers) {
                    $0.json().tripIDs.contains(id)
                }
                if !found { try await Task.sleep(for: .milliseconds(10)) }
            }
            return (found, polls)
        }
        #expect(found, "trip \(id) not listed after \(polls) polls")
    }

    static func eventually(_ what: String, _ condition: () -> Bool) async throws {
        for _ in 0..<500 {
            if condition() { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("\(what): not within 5 s")
    }

    @Test func aWriteThroughOneInstanceReachesTheOthersCache() async throws {
        try await withInstances { instances in
            let (writer, reader) = (instances[0], instances[1])
            let rider = DataTestDatabase.randomRiderID()
            let owner = API.bearer(try await reader.api.riderToken(rider.rawValue))
            let service = try await writer.api.recordHeaders()
            for minute in 0..<5 {
                let before = try await Self.warm(reader, rider: rider, headers: owner)
                let id = try await writer.api.test { client in
                    try await client.execute(
                        uri: "/v1/trips", method: .post, headers: service,
                        body: Self.postBody(rider: rider, minute: minute)
                    ) {
                        try #require($0.json().string("id"))
                    }
                }
                #expect(!before.contains(id))
                try await Self.expectEventuallyListed(id, on: reader, rider: rider, headers: owner)
                // The next round's warm-up must not race this write's announcement (a late one would turn its
                // second read into a miss).
                try await Self.eventually("write \(minute) is announced") {
                    reader.announced.count(rider) == minute + 1
                }
                // The writer's own cache is invalidated before its 201, with no wait at all.
                let own = try await writer.api.test { client in
                    try await client.execute(uri: "/v1/riders/\(rider)/trips", method: .get, headers: owner) {
                        $0.json().tripIDs
                    }
                }
                #expect(own.contains(id))
            }
        }
    }

    @Test func aDroppedChangeFeedStopsServingCachedEntriesAndReconnects() async throws {
        try await withInstances { instances in
            let (reader, other) = (instances[0], instances[1])
            let rider = DataTestDatabase.randomRiderID()
            let owner = API.bearer(try await reader.api.riderToken(rider.rawValue))
            let first = try await other.api.repository.record(
                dataTestTrip(rider: rider, requestedAtMicros: 1_780_000_000_000_000), idempotency: nil
            ).trip
            // This rider's own announcement, not any: other suites write (and announce) on the same database.
            try await Self.eventually("the first trip is announced") { reader.announced.count(rider) == 1 }
            #expect(try await Self.warm(reader, rider: rider, headers: owner) == [first.id.description])

            try await other.pool.withConnection { connection in
                _ = try connection.query(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = \(reader.applicationName)"
                ).count
            }
            try await Self.eventually("the drop is detected") { reader.drops.count == 1 }
            // A write nobody announces: inserted directly, without NOTIFY. The reader may not serve its old page.
            let copied = try await other.pool.withConnection { connection in
                try connection.query(
                    """
                    INSERT INTO trips (rider_id, status, product, city, time_zone, requested_at, started_at, completed_at,
                        pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address,
                        distance_m, duration_s, fare_amount_minor, fare_currency)
                    SELECT rider_id, status, product, city, time_zone, requested_at + interval '1 day',
                        started_at + interval '1 day', completed_at + interval '1 day', pickup_lat, pickup_lon,
                        pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s,
                        fare_amount_minor, fare_currency
                    FROM trips WHERE id = \(first.id.description)::bigint RETURNING id
                    """
                ).int64(0, 0)
            }
            let unannounced = try #require(copied).description
            try await reader.api.test { client in
                try await client.execute(uri: "/v1/riders/\(rider)/trips", method: .get, headers: owner) {
                    #expect($0.json().tripIDs == [unannounced, first.id.description])
                }
            }
            // It reconnects by itself, and announced writes invalidate its cache again.
            try await Self.eventually("the listener listens again") { reader.listens.count == 2 }
            #expect(try await Self.warm(reader, rider: rider, headers: owner) == [unannounced, first.id.description])
            let announced = try await other.api.repository.record(
                dataTestTrip(rider: rider, requestedAtMicros: 1_790_000_000_000_000), idempotency: nil
            ).trip
            try await Self.expectEventuallyListed(announced.id.description, on: reader, rider: rider, headers: owner)
        }
    }

    /// A repository that does not notify (a partition's, whose writes the sharded repository announces on the
    /// proxy) records, adjusts and erases without a notification: the rider's one announcement is that of the
    /// notifying erasure after them, which reaches the listener after any earlier notification of the database.
    @Test func aRepositoryThatDoesNotNotifyWritesWithoutAnnouncing() async throws {
        try await withInstances { instances in
            let (reader, other) = (instances[0], instances[1])
            let rider = DataTestDatabase.randomRiderID()
            let silent = PostgresTripRepository(pool: other.pool, notifies: false)
            let trip = try await silent.record(
                dataTestTrip(rider: rider, requestedAtMicros: 1_780_000_000_000_000), idempotency: nil
            ).trip
            let adjusted = try await silent.adjust(
                try NewAdjustment.requested(kind: .tip, amountMinor: 200, reason: "thanks"), tripID: trip.id,
                riderID: rider, expectedVersion: nil, idempotency: nil
            ) { _ in }
            #expect(adjusted.trip.adjustments?.count == 1)
            #expect(try await silent.erase(riderID: rider, requestedBy: "test").trips == 1)
            #expect(try await other.api.repository.erase(riderID: rider, requestedBy: "test").trips == 0)
            try await Self.eventually("the notifying erasure is announced") { reader.announced.count(rider) >= 1 }
            #expect(reader.announced.count(rider) == 1)
        }
    }

    /// Strict coherence: a write acknowledged by one instance, then at once a read on the other, which had
    /// the page cached, never gets the page without the trip.
    @Test func inStrictCoherenceAnImmediateReadOnAnotherInstanceIsNeverStale() async throws {
        try await withInstances(strict: true) { instances in
            let (writer, reader) = (instances[0], instances[1])
            let rider = DataTestDatabase.randomRiderID()
            let owner = API.bearer(try await reader.api.riderToken(rider.rawValue))
            let service = try await writer.api.recordHeaders()
            var stale: [Int] = []
            for cycle in 0..<200 {
                // Warmed twice: the second read is checked to be a hit, so the page is cached before the write.
                let before = try await Self.warm(reader, rider: rider, headers: owner)
                // Each trip later than the last, so it belongs on the cached first page.
                let time = String(format: "2026-05-01T%02d:%02d:00Z", 10 + cycle / 60, cycle % 60)
                let id = try await writer.api.test { client in
                    try await client.execute(
                        uri: "/v1/trips", method: .post, headers: service,
                        body: ByteBuffer(string: TripFixtures.recordBody(rider: rider, requestedAt: time))
                    ) {
                        try #require($0.json().string("id"))
                    }
                }
                #expect(!before.contains(id))
                let after = try await reader.api.test { client in
                    try await client.execute(uri: "/v1/riders/\(rider)/trips", method: .get, headers: owner) {
                        $0.json().tripIDs
                    }
                }
                if !after.contains(id) { stale.append(cycle) }
            }
            #expect(stale.isEmpty, "stale reads in cycles \(stale)")
        }
    }

    /// Adjustments invalidate like new trips: with strict coherence, a read on another instance right after the
    /// 201 shows the new version, in the detail and in the list row, though both were cached before.
    @Test func inStrictCoherenceAnAdjustmentIsSeenAtOnceOnAnotherInstance() async throws {
        try await withInstances(strict: true) { instances in
            let (writer, reader) = (instances[0], instances[1])
            let rider = DataTestDatabase.randomRiderID()
            let owner = API.bearer(try await reader.api.riderToken(rider.rawValue))
            let service = try await writer.api.recordHeaders()
            let id = try await writer.api.test { client in
                try await client.execute(
                    uri: "/v1/trips", method: .post, headers: service, body: Self.postBody(rider: rider, minute: 1)
                ) { try #require($0.json().string("id")) }
            }
            for version in 2...21 {
                _ = try await Self.warm(reader, rider: rider, headers: owner)
                let detail = "/v1/riders/\(rider)/trips/\(id)"
                try await reader.api.test { client in
                    for _ in 0..<2 {
                        try await client.execute(uri: detail, method: .get, headers: owner) {
                            #expect($0.json()["version"] as? Int == version - 1)
                        }
                    }
                }
                try await writer.api.test { client in
                    try await client.execute(
                        uri: detail + "/adjustments", method: .post, headers: service,
                        body: ByteBuffer(
                            string: #"{"kind": "fare_correction", "amount_minor": 10, "reason": "missing toll"}"#)
                    ) { #expect($0.status == .created) }
                }
                try await reader.api.test { client in
                    try await client.execute(uri: detail, method: .get, headers: owner) {
                        #expect($0.json()["version"] as? Int == version)
                        #expect($0.json()["fare.total_minor"] as? Int == 1834 + 10 * (version - 1))
                    }
                    try await client.execute(uri: "/v1/riders/\(rider)/trips", method: .get, headers: owner) {
                        #expect($0.json().trips.first?["version"] as? Int == version)
                    }
                }
            }
        }
    }
}
