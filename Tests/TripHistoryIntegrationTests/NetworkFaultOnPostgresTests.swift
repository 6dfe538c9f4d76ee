import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TripHistoryData
import TripHistoryDataTestSupport
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryTestSupport

/// The HTTP API on a PostgreSQL that stops answering without closing its sockets (a private cluster frozen
/// with SIGSTOP): rider reads, including those answered before the router, and writes get a 503 problem
/// with `Retry-After` instead of hanging, and the service answers again by itself once PostgreSQL does.
@Suite struct NetworkFaultOnPostgresTests {
    typealias API = TestAPI<PostgresTripRepository>

    @Test func aFrozenServerGives503ProblemsWithRetryAfterAndTheServiceRecovers() async throws {
        let cluster = try await FreezableCluster.start()
        defer { cluster.remove() }
        let pool = PostgresConnectionPool(
            configuration: .init(
                connectionString: cluster.connectionString, size: 2, acquireTimeout: .seconds(2),
                statementTimeout: .seconds(1), connectTimeout: .seconds(2), pipelinedConnections: 1,
                queryGrace: .milliseconds(500)
            )
        ).running()
        let api = await TestAPI(repository: PostgresTripRepository(pool: pool))
        let rider = DataTestDatabase.randomRiderID()
        let reader = API.bearer(try await api.riderToken(rider.rawValue))
        let writer = try await api.recordHeaders()
        let list = "/v1/riders/\(rider)/trips"
        let post: @Sendable (Int) -> ByteBuffer = { minute in
            ByteBuffer(
                string: TripFixtures.recordBody(rider: rider, requestedAt: "2026-03-01T10:0\(minute):00-05:00"))
        }

        let outcome = await outcome(within: .seconds(180)) {
            try await api.testLive { client in
                try await client.execute(uri: "/v1/trips", method: .post, headers: writer, body: post(0)) {
                    #expect($0.status == .created)
                }
                try await client.execute(uri: list, method: .get, headers: reader) { #expect($0.status == .ok) }

                try await cluster.whileFrozen {
                    let requests: [(String, HTTPRequest.Method, HTTPFields, ByteBuffer?)] = [
                        (list, .get, reader, nil), ("/v1/trips", .post, writer, post(1)),
                        (list + "?status=completed", .get, reader, nil),
                    ]
                    for (uri, method, headers, body) in requests {
                        try await client.execute(uri: uri, method: method, headers: headers, body: body) { response in
                            #expect(response.status == .serviceUnavailable, "\(method) \(uri)")
                            #expect(response.headers[.contentType] == "application/problem+json")
                            #expect(response.headers[.retryAfter].flatMap { Int($0) }.map { $0 > 0 } == true)
                            #expect(response.json().string("code") == "unavailable")
                        }
                    }
                }

                let deadline = ContinuousClock.now + .seconds(60)
                var status = HTTPResponse.Status.serviceUnavailable
                while status != .ok, ContinuousClock.now < deadline {
                    status = try await client.execute(uri: list, method: .get, headers: reader) { $0.status }
                    if status != .ok { try await Task.sleep(for: .milliseconds(200)) }
                }
                #expect(status == .ok)
                try await client.execute(uri: "/v1/trips", method: .post, headers: writer, body: post(2)) {
                    #expect($0.status == .created)
                }
            }
        }
        await pool.shutdown()
        switch outcome {
        case nil: Issue.record("the requests did not complete: a call blocked on the frozen server")
        case .failure(let error): Issue.record("the requests failed: \(error)")
        case .success: break
        }
    }
}
