import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing
import TripHistoryApp
import TripHistoryData
import TripHistoryDataTestSupport
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryTestSupport

@testable import TripHistoryAPI
@testable import TripHistoryHTTP

#if canImport(Glibc)
import Glibc
#endif

/// Counts the reads an export makes, to see when it stops.
final class CountingAnalystRepository: AnalystTripRepository {
    let base: PostgresAnalystTripRepository
    let reads = Mutex(0)

    init(base: PostgresAnalystTripRepository) {
        self.base = base
    }

    func trips(matching query: AnalystTripQuery) async throws -> [Trip] {
        reads.withLock { $0 += 1 }
        return try await base.trips(matching: query)
    }

    func stats(matching query: TripStatsQuery) async throws -> [TripStatsBucket] {
        try await base.stats(matching: query)
    }

    func count(matching filter: AnalystTripFilter, mode: TripCountMode) async throws -> TripCount {
        try await base.count(matching: filter, mode: mode)
    }

    func changes(after position: AnalystFeedPosition, limit: Int) async throws -> AnalystChangePage {
        try await base.changes(after: position, limit: limit)
    }

    func currentChangePosition() async throws -> AnalystFeedPosition {
        try await base.currentChangePosition()
    }
}

/// The analyst reads on the real database. Every test writes trips in cities (and for riders) of its own,
/// and every query filters by them, so rows of suites running beside it never match.
@Suite struct AnalystOnPostgresTests {
    static let start = InMemoryAnalystFixtures.start

    private static func uniqueCity(_ name: String) -> String {
        "\(name) \(UInt64.random(in: 0...UInt64.max))"
    }

    /// Stores `count` mixed trips in two fresh cities for three fresh riders and returns them as stored.
    private func seed(
        _ pool: PostgresConnectionPool, count: Int
    ) async throws -> (trips: [Trip], cities: [String], riders: [Int64]) {
        let repository = PostgresTripRepository(pool: pool)
        let cities = [Self.uniqueCity("Paris, \"Nord\""), Self.uniqueCity("Lyon")]
        let riders = (0..<3).map { _ in DataTestDatabase.randomRiderID().rawValue }
        var trips: [Trip] = []
        for index in 0..<count {
            trips.append(
                try await repository.record(
                    InMemoryAnalystFixtures.mixedNewTrip(index, cities: cities, riders: riders), idempotency: nil
                ).trip.listRow)
        }
        return (trips, cities, riders)
    }

    private func filter(
        status: TripStatus? = nil, city: String? = nil, product: String? = nil, rider: Int64? = nil
    ) throws -> AnalystTripFilter {
        let from = Self.start.addingTimeInterval(86_400 * 2)
        return try AnalystTripFilter(
            range: DateRange(from: from, to: from.addingTimeInterval(86_400 * 50)), status: status, city: city,
            product: product, riderID: rider.flatMap { RiderID($0) }
        )
    }

    @Test func filtersAndTheirCombinationsMatchTheInMemoryModelWhilePaging() async throws {
        try await DataTestDatabase.withPool { pool in
            let (trips, cities, riders) = try await seed(pool, count: 90)
            let model = ListAnalystTrips(
                repository: InMemoryAnalystTripRepository(trips: trips), limits: AnalystQueryLimits())
            let real = ListAnalystTrips(
                repository: PostgresAnalystTripRepository(pool: pool), limits: AnalystQueryLimits())
            let filters = [
                try filter(city: cities[0]), try filter(status: .canceled, city: cities[1]),
                try filter(city: cities[0], product: "Comfort"), try filter(rider: riders[1]),
                try filter(status: .completed, product: "UberX", rider: riders[2]),
                try filter(status: .completed, city: cities[1], product: "Comfort", rider: riders[0]),
            ]
            let analyst = try AccessPolicy.analyze(caller: .analyst(subject: "ana"))
            for filter in filters {
                var expected: [Trip] = []
                var actual: [Trip] = []
                var position: PagePosition?
                var modelPosition: PagePosition?
                repeat {
                    let page = try await real.execute(
                        filter: filter, limit: AnalystPageLimit(4)!, position: position, grant: analyst)
                    let modelPage = try await model.execute(
                        filter: filter, limit: AnalystPageLimit(4)!, position: modelPosition, grant: analyst
                    )
                    actual += page.trips
                    expected += modelPage.trips
                    position = page.next
                    modelPosition = modelPage.next
                    #expect(page.next == modelPage.next && page.previous == modelPage.previous)
                } while position != nil && actual.count < 200
                #expect(actual == expected, "\(filter)")
                #expect(!expected.isEmpty)
                // Walking back from the last page returns the same trips in reverse page order.
                let lastPage = try await real.execute(
                    filter: filter, limit: AnalystPageLimit(1000)!, position: nil, grant: analyst
                )
                #expect(lastPage.trips == expected)
            }
        }
    }

    @Test func countsMatchTheModelForEveryCombinationOfFilters() async throws {
        try await DataTestDatabase.withPool { pool in
            let (trips, cities, riders) = try await seed(pool, count: 60)
            let repository = PostgresAnalystTripRepository(pool: pool)
            let filters = [
                try filter(city: cities[0]), try filter(status: .canceled, city: cities[1]),
                try filter(city: cities[0], product: "Comfort"), try filter(rider: riders[1]),
                try filter(status: .completed, city: cities[1], product: "Comfort", rider: riders[0]),
            ]
            for filter in filters {
                let exact = try await repository.count(matching: filter, mode: .exact)
                #expect(exact == TripCount(value: Int64(trips.filter(filter.matches).count), accuracy: .exact))
                let planned = try await repository.count(matching: filter, mode: .planned)
                #expect(planned.accuracy == .planned && planned.value >= 1, "\(filter)")
            }
        }
    }

    @Test func ndjsonExportEqualsPagingTheJSONAPIAndCSVQuotesAddresses() async throws {
        try await DataTestDatabase.withPool { pool in
            let (trips, cities, _) = try await seed(pool, count: 70)
            let api = await TestAPI(
                repository: PostgresTripRepository(pool: pool),
                analystRepository: PostgresAnalystTripRepository(pool: pool),
                settings: {
                    $0.exportBatchSize = 6
                })
            let city = QueryEncoding.escape(cities[0])
            let query = "from=2026-01-01&to=2026-03-01&city=\(city)&tz=Europe/Paris"
            let token = try await api.analystToken()
            let json = TestAPI<PostgresTripRepository>.bearer(token).merging([.acceptLanguage: "ja-JP"])
            try await api.test { client in
                var objects: [String] = []
                var uri: String? = "/v1/trips?limit=9&\(query)"
                while let current = uri {
                    try #require(objects.count <= trips.count, "the walk returned more trips than exist")
                    let body = try await client.execute(uri: current, method: .get, headers: json) {
                        String(buffer: $0.body)
                    }
                    objects += rawArrayElements(body, after: "{\"data\":[")
                    uri = try JSONBody(ByteBuffer(string: body)).string("page.next_cursor").map {
                        "/v1/trips?limit=9&\(query)&cursor=\($0)"
                    }
                }
                let expected = trips.filter { $0.details.city == cities[0] }
                #expect(objects.count == expected.count)
                try await client.execute(
                    uri: "/v1/trips?\(query)", method: .get, headers: json.merging([.accept: "application/x-ndjson"])
                ) { response in
                    #expect(response.status == .ok)
                    #expect(String(buffer: response.body) == objects.map { $0 + "\n" }.joined())
                }
                try await client.execute(
                    uri: "/v1/trips?\(query)", method: .get, headers: json.merging([.accept: "text/csv"])
                ) { response in
                    let records = parseCSV(String(buffer: response.body))
                    #expect(records.first == CSVWriter.columns)
                    let byID = Dictionary(uniqueKeysWithValues: expected.map { ($0.id.description, $0) })
                    #expect(records.count == expected.count + 1)
                    for record in records.dropFirst() {
                        let trip = try #require(byID[record[0]])
                        #expect(record[4] == cities[0])
                        #expect(record[11] == trip.details.pickup.address)
                        #expect(record[14] == trip.details.dropoff.address)
                        #expect(record[6] == RFC3339.format(trip.requestedAt))
                    }
                    #expect(
                        records.dropFirst().contains {
                            $0[11].contains(",") && $0[11].contains("\"") && $0[11].contains("\n")
                        })
                }
            }
        }
    }

    @Test func dayBucketsFollowNewYorkLocalMidnightsAcrossTheDSTChange() async throws {
        try await DataTestDatabase.withPool { pool in
            let repository = PostgresTripRepository(pool: pool)
            let city = Self.uniqueCity("New York")
            let rider = DataTestDatabase.randomRiderID().rawValue
            // 2026-03-08 is 23 hours long in New York: EST (-05:00) until 02:00, EDT (-04:00) after.
            let times = [
                "2026-03-07T04:59:59Z", "2026-03-07T05:00:00Z", "2026-03-08T04:59:59Z", "2026-03-08T05:00:00Z",
                "2026-03-08T07:30:00Z", "2026-03-09T03:59:59Z", "2026-03-09T04:00:00Z", "2026-03-10T03:59:59Z",
            ]
            var stored: [Trip] = []
            for (index, time) in times.enumerated() {
                let new = InMemoryAnalystFixtures.newTrip(
                    rider: rider, city: city, status: index == 4 ? .canceled : .completed,
                    requestedAt: RFC3339.parseTimestamp(time)!, currency: index % 2 == 0 ? "USD" : "EUR",
                    fare: Int64(100 * (index + 1)), distance: Int64(index * 10), duration: Int64(60 * (index + 1))
                )
                var trip = try await repository.record(new, idempotency: nil).trip
                // Tips and refunds after the ride on some of them, which the stats sum per currency.
                if index == 2 || index == 3 {
                    trip = try await repository.adjust(
                        try NewAdjustment.requested(kind: .tip, amountMinor: Int64(10 * index), reason: "thanks"),
                        tripID: trip.id, riderID: trip.riderID, expectedVersion: nil, idempotency: nil
                    ) { _ in }.trip
                }
                if index == 3 || index == 5 {
                    trip = try await repository.adjust(
                        try NewAdjustment.requested(kind: .refund, amountMinor: -Int64(index), reason: "delay"),
                        tripID: trip.id, riderID: trip.riderID, expectedVersion: nil, idempotency: nil
                    ) { _ in }.trip
                }
                stored.append(trip.listRow)
            }
            let filter = try AnalystTripFilter(
                range: DateRange(
                    from: RFC3339.parseTimestamp("2026-03-01T00:00:00Z")!,
                    to: RFC3339.parseTimestamp("2026-03-20T00:00:00Z")!),
                city: city
            )
            let real = GetTripStats(repository: PostgresAnalystTripRepository(pool: pool), limits: AnalystQueryLimits())
            let model = GetTripStats(
                repository: InMemoryAnalystTripRepository(trips: stored), limits: AnalystQueryLimits())
            let analyst = try AccessPolicy.analyze(caller: .analyst(subject: "ana"))
            let query = TripStatsQuery(filter: filter, granularity: .day, timeZone: "America/New_York")
            let buckets = try await real.execute(query, grant: analyst)
            #expect(
                buckets.map { RFC3339.format($0.start) } == [
                    "2026-03-06T05:00:00.000000Z", "2026-03-07T05:00:00.000000Z", "2026-03-08T05:00:00.000000Z",
                    "2026-03-09T04:00:00.000000Z",
                ])
            #expect(buckets.map(\.trips) == [1, 2, 3, 2])
            #expect(buckets[2].canceled == 1 && buckets[2].completed == 2)
            // 05:00Z (EUR 400), 07:30Z (USD 500, canceled) and 03:59:59Z the next day (EUR 600) are March 8 there.
            #expect(buckets[2].fareTotals == [CurrencyCode("EUR")!: 1000, CurrencyCode("USD")!: 500])
            // March 7 there: index 2 (USD, tip 20); March 8: index 3 (EUR, tip 30, refund -3) and 5 (EUR, refund -5).
            #expect(buckets[1].tipTotals == [CurrencyCode("EUR")!: 0, CurrencyCode("USD")!: 20])
            #expect(buckets[1].refundTotals == [CurrencyCode("EUR")!: 0, CurrencyCode("USD")!: 0])
            #expect(buckets[2].tipTotals == [CurrencyCode("EUR")!: 30, CurrencyCode("USD")!: 0])
            #expect(buckets[2].refundTotals == [CurrencyCode("EUR")!: -8, CurrencyCode("USD")!: 0])
            #expect(buckets == (try await model.execute(query, grant: analyst)))
            for granularity in [StatsGranularity.week, .month] {
                for zone in ["UTC", "America/New_York", "Asia/Tokyo"] {
                    let query = TripStatsQuery(filter: filter, granularity: granularity, timeZone: zone)
                    #expect(
                        try await real.execute(query, grant: analyst)
                            == (try await model.execute(query, grant: analyst)))
                }
            }
        }
    }

    /// Issue 13's crash, through the API: two trips of 9e18 m on one day, in EUR and in USD, are refused with
    /// `422` naming `distance_m`, so the stats over that day answer `200` with the trips that were recorded
    /// (two at the distance bound, whose total is exact).
    @Test func extremeDistancesAreRefusedAtRecordingAndTheDaysStatsAnswer() async throws {
        try await DataTestDatabase.withPool { pool in
            let api = await TestAPI(
                repository: PostgresTripRepository(pool: pool),
                analystRepository: PostgresAnalystTripRepository(pool: pool))
            let service = TestAPI<PostgresTripRepository>.bearer(try await api.serviceToken()).merging([
                .contentType: "application/json"
            ])
            let analyst = TestAPI<PostgresTripRepository>.bearer(try await api.analystToken())
            let rider = DataTestDatabase.randomRiderID()
            @Sendable func body(distance: Int, currency: String) -> ByteBuffer {
                let json = TripFixtures.recordBody(
                    rider: rider, requestedAt: "2026-06-01T08:00:00Z", distance: distance)
                return ByteBuffer(string: json.replacingOccurrences(of: "\"USD\"", with: "\"\(currency)\""))
            }
            try await api.test { client in
                for currency in ["EUR", "USD"] {
                    try await client.execute(
                        uri: "/v1/trips", method: .post, headers: service,
                        body: body(distance: 9_000_000_000_000_000_000, currency: currency)
                    ) { response in
                        #expect(response.status == .unprocessableContent)
                        let problem = response.json()
                        #expect(problem.string("param") == "distance_m")
                        #expect(problem.string("detail")?.contains("at most 2000000") == true)
                    }
                }
                for currency in ["EUR", "USD"] {
                    try await client.execute(
                        uri: "/v1/trips", method: .post, headers: service,
                        body: body(distance: 2_000_000, currency: currency)
                    ) { #expect($0.status == .created) }
                }
                try await client.execute(
                    uri: "/v1/trips/stats?from=2026-06-01&to=2026-06-02&group_by=day&rider_id=\(rider)", method: .get,
                    headers: analyst
                ) { response in
                    #expect(response.status == .ok)
                    let buckets = response.json().trips
                    #expect(buckets.count == 1)
                    #expect(buckets.first?["trips"] as? Int == 2)
                    #expect(buckets.first?["total_distance_m"] as? Int == 4_000_000)
                    #expect(buckets.first?["total_fare_minor"] as? [String: Int] == ["EUR": 1834, "USD": 1834])
                }
            }
        }
    }

    @Test func aClosedConnectionStopsTheExportAndItsQueries() async throws {
        try await DataTestDatabase.withPool(size: 4) { pool in
            let repository = PostgresTripRepository(pool: pool)
            let city = Self.uniqueCity("Disconnect")
            let rider = DataTestDatabase.randomRiderID()
            // Enough rows that the export is far from done when the client hangs up (about 6 MB of NDJSON),
            // written in one statement so that the setup does not compete for the pool with other suites.
            let first = Timestamp.micros(Self.start)
            let inserted = try await pool.withConnection { connection in
                try connection.query(
                    """
                    INSERT INTO trips (rider_id, status, product, city, time_zone, requested_at, started_at, completed_at,
                        pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address,
                        distance_m, duration_s, fare_amount_minor, fare_currency)
                    SELECT \(rider.rawValue)::bigint, 'completed', 'UberX', \(city), 'America/New_York', t, t, t,
                        40.7, -74.0, 'Pickup, "A"', 40.8, -73.9, 'Dropoff', 1000, 600, 1500, 'USD'
                    FROM generate_series(0, 5999) AS n,
                        LATERAL (SELECT to_timestamp((\(first)::bigint + n::bigint * 60000000) / 1e6) AS t) AS times
                    """
                ).affectedRows
            }
            #expect(inserted == 6000)
            let counting = CountingAnalystRepository(base: PostgresAnalystTripRepository(pool: pool))
            let api = await TestAPI(
                repository: repository, analystRepository: counting,
                settings: {
                    $0.exportBatchSize = 100
                })
            let token = try await api.analystToken()
            let app = Application(router: api.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            try await app.test(.live) { client in
                let port = try #require(client.port)
                let received = try Self.readSomeAndHangUp(
                    port: port,
                    request:
                        "GET /v1/trips?from=2026-01-01&to=2026-02-01&city=\(QueryEncoding.escape(city)) HTTP/1.1\r\n"
                        + "Host: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nAccept: application/x-ndjson\r\n\r\n",
                    bytes: 16 * 1024
                )
                #expect(received.hasPrefix("HTTP/1.1 200"))
                // The export notices the closed socket on a write and stops reading batches.
                var polls = 0
                var previous = -1
                while polls < 100 {
                    try await Task.sleep(for: .milliseconds(100))
                    let reads = counting.reads.withLock { $0 }
                    if reads == previous && api.exportSlots.active == 0 { break }
                    previous = reads
                    polls += 1
                }
                let reads = counting.reads.withLock { $0 }
                #expect(polls < 100)
                #expect(api.exportSlots.active == 0)
                #expect(reads >= 1)
                print("analyst disconnect test: \(reads) batch reads of 60 before the export stopped")
                #expect(reads < 60, "the export of 60 batches went on after the client left: \(reads) reads")
                try await Task.sleep(for: .milliseconds(300))
                #expect(counting.reads.withLock { $0 } == reads)
                // And nothing of it is still running in the database.
                let active = try await pool.withConnection { connection in
                    try connection.query(
                        """
                        SELECT count(*) FROM pg_stat_activity
                        WHERE application_name = 'trip-history' AND state = 'active' AND pid <> pg_backend_pid()
                          AND query LIKE '%status = ANY ($5::text[]) AND city = $6%'
                        """
                    ).int64(0, 0)
                }
                #expect(active == 0)
            }
        }
    }

    /// Sends `request` on a plain TCP socket, reads at least `bytes` of the answer, then closes the socket.
    private static func readSomeAndHangUp(port: Int, request: String, bytes: Int) throws -> String {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(socketFD >= 0)
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        #expect(connected == 0)
        // A small receive buffer makes the server's writes block soon, as on a slow client.
        var small: Int32 = 4096
        setsockopt(socketFD, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        let sent = request.utf8CString.withUnsafeBufferPointer { send(socketFD, $0.baseAddress, $0.count - 1, 0) }
        #expect(sent > 0)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < bytes {
            let count = recv(socketFD, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }
}
