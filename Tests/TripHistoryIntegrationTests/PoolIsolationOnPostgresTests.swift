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

/// Pools by purpose on the real database, wired as the composition root wires them: analyst statements that
/// cannot finish (`HeldAnalystStatements`) and a readiness flood leave the writes' pool alone, the same load on
/// one shared pool starves the writes, and callers beyond a pool's waiting bound get a quick 503 with
/// `Retry-After` while nothing else fails.
@Suite struct PoolIsolationOnPostgresTests {
    typealias API = TestAPI<PostgresTripRepository>

    private struct Answer: Sendable {
        let status: HTTPResponse.Status
        let contentType: String?
        let retryAfter: String?
        let code: String?
    }

    /// Responses counted as they arrive, from concurrent tasks.
    private final class Counter: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func increment() { count.withLock { $0 += 1 } }
    }

    private static func summarize(_ response: TestResponse) -> Answer {
        Answer(
            status: response.status, contentType: response.headers[.contentType],
            retryAfter: response.headers[.retryAfter],
            code: response.headers[.contentType] == "application/problem+json" ? response.json().string("code") : nil)
    }

    private static func statsURI(_ rider: RiderID) -> String {
        "/v1/trips/stats?from=2026-06-01&to=2026-06-02&group_by=day&rider_id=\(rider)"
    }

    /// Records one trip of `rider` inside the stats window, so the gated statements read a row (and wait).
    private static func recordTripInWindow(_ client: any TestClientProtocol, _ api: API, _ rider: RiderID) async throws
    {
        try await client.execute(
            uri: "/v1/trips", method: .post, headers: try await api.recordHeaders(),
            body: ByteBuffer(string: TripFixtures.recordBody(rider: rider, requestedAt: "2026-06-01T08:00:00Z"))
        ) { #expect($0.status == .created) }
    }

    /// `count` stats requests at once, started in the background.
    /// The headers of `count` analysts, so concurrent queries meet the pool's limits, not one analyst's limit
    /// of stats queries at once.
    private static func analysts(_ count: Int, _ api: API) async throws -> [HTTPFields] {
        var headers: [HTTPFields] = []
        for index in 0..<count { headers.append(API.bearer(try await api.analystToken(subject: "analyst-\(index)"))) }
        return headers
    }

    /// One stats query per analyst of `analysts`, all at once.
    private static func startStats(
        _ analysts: [HTTPFields], _ client: any TestClientProtocol, _ rider: RiderID
    ) -> Task<[Answer], any Error> {
        Task {
            try await withThrowingTaskGroup(of: Answer.self) { group in
                for headers in analysts {
                    group.addTask {
                        try await client.execute(uri: statsURI(rider), method: .get, headers: headers) {
                            summarize($0)
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
    }

    @Test func slowAnalystQueriesAndAReadinessFloodDoNotStarveWrites() async throws {
        // The writes may wait as long as they like for their own connections (on a busy machine twenty POSTs
        // on two connections take a while): only starvation, which would last until the release, fails them.
        try await DataTestDatabase.withPool(size: 2, acquireTimeout: .seconds(120)) { writes in
            try await HeldAnalystStatements.with { held in
                let analystPool = held.makePool(size: 2, maximumWaiters: 8)
                let health = try DatabaseHealthMonitor(
                    connectionString: try DataTestDatabase.connectionString(),
                    migrationsDirectory: DataTestDatabase.migrationsDirectory, interval: .seconds(20))
                let monitoring = Task { try await health.run() }
                do {
                    try await Self.writesStayServed(writes: writes, analystPool: analystPool, health: health, held)
                } catch {
                    monitoring.cancel()
                    await analystPool.shutdown()
                    throw error
                }
                monitoring.cancel()
                try await monitoring.value
                await analystPool.shutdown()
            }
        }
    }

    private static func writesStayServed(
        writes: PostgresConnectionPool, analystPool: PostgresConnectionPool, health: DatabaseHealthMonitor,
        _ held: HeldAnalystStatements
    ) async throws {
        try await poolTestEventually("the database is ready") { health.isReady }
        let api = await TestAPI(
            repository: PostgresTripRepository(pool: writes),
            analystRepository: PostgresAnalystTripRepository(pool: analystPool, statementTimeout: .seconds(600)),
            settings: {
                $0.isReady = { health.isReady }
            })
        let rider = DataTestDatabase.randomRiderID()
        let analysts = try await Self.analysts(10, api)
        let service = try await api.recordHeaders()
        try await api.test { client in
            try await recordTripInWindow(client, api, rider)
            try await held.hold()
            let stats = startStats(analysts, client, rider)
            // Ten slow analyst queries: both analyst connections busy in their statements, the rest waiting.
            try await held.waitUntilWaiting(2)
            try await poolTestEventually("eight analyst requests wait") { analystPool.waiting == 8 }

            let answers = try await withThrowingTaskGroup(of: (String, HTTPResponse.Status).self) { group in
                for index in 0..<20 {
                    let body = TripFixtures.recordBody(
                        rider: rider, requestedAt: "2026-06-01T09:\(String(format: "%02d", index)):00Z")
                    group.addTask {
                        try await client.execute(
                            uri: "/v1/trips", method: .post, headers: service, body: ByteBuffer(string: body)
                        ) { ("POST", $0.status) }
                    }
                }
                for _ in 0..<200 {
                    group.addTask { try await client.execute(uri: "/readyz", method: .get) { ("readyz", $0.status) } }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0.0 == "POST" }.map { $0.1 } == Array(repeating: .created, count: 20))
            #expect(answers.filter { $0.0 == "readyz" }.map { $0.1 } == Array(repeating: .ok, count: 200))
            // The analyst queries were still held throughout.
            #expect(analystPool.waiting == 8)

            try await held.release()
            let statuses = try await stats.value.map(\.status)
            #expect(statuses == Array(repeating: .ok, count: 10))
        }
    }

    /// The control: with the analyst repository on the writes' pool, as before pools by purpose, the same
    /// held analyst queries leave no connection for a write, which gets 503.
    @Test func theSameAnalystLoadOnOneSharedPoolStarvesWrites() async throws {
        try await DataTestDatabase.withPool { _ in
            try await HeldAnalystStatements.with { held in
                let shared = held.makePool(size: 2, maximumWaiters: 64, acquireTimeout: .milliseconds(300))
                do {
                    try await Self.writesStarve(on: shared, held)
                } catch {
                    await shared.shutdown()
                    throw error
                }
                await shared.shutdown()
            }
        }
    }

    private static func writesStarve(on shared: PostgresConnectionPool, _ held: HeldAnalystStatements) async throws {
        let api = await TestAPI(
            repository: PostgresTripRepository(pool: shared),
            analystRepository: PostgresAnalystTripRepository(pool: shared, statementTimeout: .seconds(600)))
        let rider = DataTestDatabase.randomRiderID()
        let analysts = try await Self.analysts(10, api)
        try await api.test { client in
            try await recordTripInWindow(client, api, rider)
            try await held.hold()
            let stats = startStats(analysts, client, rider)
            try await held.waitUntilWaiting(2)
            try await client.execute(
                uri: "/v1/trips", method: .post, headers: try await api.recordHeaders(),
                body: ByteBuffer(string: TripFixtures.recordBody(rider: rider, requestedAt: "2026-06-01T10:00:00Z"))
            ) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] != nil)
            }
            try await held.release()
            _ = try await stats.value
        }
    }

    /// Thirty stats requests on an analyst pool of one connection that lets two wait: the one running is held,
    /// so exactly two wait and the other twenty-seven are refused at once, each with a problem and
    /// `Retry-After`; once the statement may finish, the three are answered 200. Nothing else is answered.
    @Test func aFloodBeyondThePoolIsShedWith503AndRetryAfter() async throws {
        try await DataTestDatabase.withPool(size: 2) { writes in
            try await HeldAnalystStatements.with { held in
                let analystPool = held.makePool(size: 1, maximumWaiters: 2)
                do {
                    try await Self.floodIsShed(writes: writes, analystPool: analystPool, held)
                } catch {
                    await analystPool.shutdown()
                    throw error
                }
                await analystPool.shutdown()
            }
        }
    }

    private static func floodIsShed(
        writes: PostgresConnectionPool, analystPool: PostgresConnectionPool, _ held: HeldAnalystStatements
    ) async throws {
        let api = await TestAPI(
            repository: PostgresTripRepository(pool: writes),
            analystRepository: PostgresAnalystTripRepository(pool: analystPool, statementTimeout: .seconds(600)))
        let rider = DataTestDatabase.randomRiderID()
        let analysts = try await Self.analysts(30, api)
        try await api.test { client in
            try await recordTripInWindow(client, api, rider)
            try await held.hold()
            let finished = Counter()
            let flood = Task { [analysts] in
                try await withThrowingTaskGroup(of: Answer.self) { group in
                    for analyst in analysts {
                        group.addTask {
                            let answer = try await client.execute(uri: statsURI(rider), method: .get, headers: analyst)
                            {
                                summarize($0)
                            }
                            finished.increment()
                            return answer
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            // The refused requests come back while the admitted ones cannot finish.
            try await poolTestEventually("27 requests answered") { finished.value >= 27 }
            #expect(finished.value == 27)
            #expect(analystPool.waiting == 2)
            try await held.release()
            let answers = try await flood.value
            #expect(answers.filter { $0.status == .ok }.count == 3)
            let refused = answers.filter { $0.status != .ok }
            #expect(refused.count == 27)
            for answer in refused {
                #expect(answer.status == .serviceUnavailable)
                #expect(answer.contentType == "application/problem+json")
                #expect(answer.code == "unavailable")
                #expect(answer.retryAfter == "1")
            }
        }
    }
}
