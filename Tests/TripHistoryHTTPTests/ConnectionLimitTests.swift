import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing
import TripHistoryApp
import TripHistoryCache
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryTestSupport

@testable import TripHistoryAPI
@testable import TripHistoryHTTP

/// The connection guards on a real socket, with raw clients that misbehave on purpose. Each test shortens only
/// the timeout it is about; the others keep their defaults, so a slow machine cannot close a connection early.
/// Nothing here checks how soon a connection is closed, only that it is, within a generous deadline.
@Suite struct ConnectionLimitTests {
    typealias API = TestAPI<InMemoryTripRepository>

    private static let short = TimeAmount.milliseconds(300)

    /// Timeouts long enough that no connection of a test is closed by one the test is not about, with
    /// `change` applied.
    static func limits(_ change: (inout ConnectionLimits) -> Void = { _ in }) -> ConnectionLimits {
        var limits = ConnectionLimits(
            headTimeout: .seconds(300), idleTimeout: .seconds(300), bodyTimeout: .seconds(300),
            bodyDeadline: .seconds(300), writeTimeout: .seconds(300))
        change(&limits)
        return limits
    }

    private static func api(cache: TripResponseCache? = nil) async -> API {
        await TestAPI(
            repository: InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 5)),
            settings: {
                $0.cache = cache
            })
    }

    /// Polls `condition` every 20 ms for up to a minute.
    private static func eventually(_ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            if ContinuousClock.now > deadline { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// The head's lines (lowercased) and the body of a response as received.
    private static func parts(_ response: String) -> (head: String, body: String) {
        let split = response.components(separatedBy: "\r\n\r\n")
        return (split[0].lowercased(), split.dropFirst().joined(separator: "\r\n\r\n"))
    }

    private static func expectProblem(
        _ received: String?, status: Int, code: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let received = try #require(received, "the server closed the connection", sourceLocation: sourceLocation)
        let (head, body) = parts(received)
        #expect(head.hasPrefix("http/1.1 \(status) "), sourceLocation: sourceLocation)
        #expect(head.contains("\r\ncontent-type: application/problem+json"), sourceLocation: sourceLocation)
        #expect(head.contains("\r\nconnection: close"), sourceLocation: sourceLocation)
        #expect(head.contains("\r\nx-request-id: "), sourceLocation: sourceLocation)
        #expect(
            head.contains("\r\nlink: </docs#problem-\(code)>; rel=\"describedby\""), sourceLocation: sourceLocation)
        #expect(body.contains("\"status\":\(status)"), sourceLocation: sourceLocation)
        #expect(body.contains("\"code\":\"\(code)\""), sourceLocation: sourceLocation)
    }

    @Test func aHalfSentHeadIsAnswered408AndClosed() async throws {
        let api = await Self.api()
        try await api.testLive(connectionLimits: Self.limits { $0.headTimeout = Self.short }) { client in
            // A connection whose first bytes arrive after the timeout is closed without an answer, as one
            // that sends nothing; on a busy machine that can happen, so such an attempt is made again.
            var received: String?
            let deadline = ContinuousClock.now + .seconds(60)
            repeat {
                let connection = try await RawConnection.open(port: try #require(client.port))
                try? await connection.send("GET /v1/riders/1/trips HTTP/1.1\r\nHost: test\r\nAccept: appl")
                received = await connection.readUntilClosed()
            } while received == "" && ContinuousClock.now < deadline
            try Self.expectProblem(received, status: 408, code: "request_timeout")
        }
    }

    @Test func aConnectionThatSendsNothingIsClosed() async throws {
        let api = await Self.api()
        try await api.testLive(connectionLimits: Self.limits { $0.headTimeout = Self.short }) { client in
            let connection = try await RawConnection.open(port: try #require(client.port))
            #expect(await connection.readUntilClosed() == "")
        }
    }

    @Test(arguments: ["/v1/riders/1/trips?limit=2", "/healthz"])
    func anIdleKeepAliveConnectionIsClosedAfterARequestAnsweredBeforeTheRouter(path: String) async throws {
        let api = await Self.api(cache: TripResponseCache())
        let token = try await api.riderToken(1)
        let answers = EarlyReadHandlerTests.Answers()
        try await api.testLive(
            connectionLimits: Self.limits { $0.idleTimeout = Self.short }, onEarlyAnswer: answers.record
        ) { client in
            // The router verifies a token the first time it is seen; afterwards the handler answers reads.
            try await client.execute(uri: path, method: .get, headers: API.bearer(token)) {
                #expect($0.status == .ok)
            }
            let before = answers.stored + answers.computed
            let connection = try await RawConnection.open(port: try #require(client.port))
            try await connection.send("GET \(path) HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer \(token)\r\n\r\n")
            #expect(try #require(await connection.readResponse()).hasPrefix("HTTP/1.1 200 "))
            #expect(answers.stored + answers.computed == before + 1, "answered by the early-read handler")
            #expect(await connection.readUntilClosed() == "")
        }
    }

    @Test func anIdleKeepAliveConnectionIsClosedAfterARequestAnsweredByTheRouter() async throws {
        let api = await Self.api()
        try await api.testLive(connectionLimits: Self.limits { $0.idleTimeout = Self.short }) { client in
            let connection = try await RawConnection.open(port: try #require(client.port))
            try await connection.send("GET /openapi.yaml HTTP/1.1\r\nHost: test\r\n\r\n")
            #expect(try #require(await connection.readResponse()).hasPrefix("HTTP/1.1 200 "))
            #expect(await connection.readUntilClosed() == "")
        }
    }

    @Test func aRequestBodyThatStopsArrivingClosesTheConnection() async throws {
        let api = await Self.api()
        let token = try await api.serviceToken()
        try await api.testLive(connectionLimits: Self.limits { $0.bodyTimeout = Self.short }) { client in
            let connection = try await RawConnection.open(port: try #require(client.port))
            try await connection.send(
                "POST /v1/trips HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer \(token)\r\n"
                    + "Content-Type: application/json\r\nIdempotency-Key: stalled-1\r\nContent-Length: 600\r\n\r\n"
                    + "{\"rider_id\":1,")
            let received = try #require(await connection.readUntilClosed(), "the server closed the connection")
            #expect(!received.hasPrefix("HTTP/1.1 2"))
        }
        #expect(api.repository.allTrips.count == 5, "nothing was recorded")
    }

    /// A body whose bytes keep coming, each well within the body timeout, is still cut at the body deadline.
    @Test func aRequestBodyTrickledPastItsDeadlineClosesTheConnection() async throws {
        let api = await Self.api()
        let token = try await api.serviceToken()
        try await api.testLive(connectionLimits: Self.limits { $0.bodyDeadline = .seconds(1) }) { client in
            let connection = try await RawConnection.open(port: try #require(client.port))
            try await connection.send(
                "POST /v1/trips HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer \(token)\r\n"
                    + "Content-Type: application/json\r\nIdempotency-Key: trickled-1\r\nContent-Length: 6000\r\n\r\n")
            // One byte every 100 ms would take ten minutes; the guard closes the connection long before.
            // Writes fail once the server has closed the connection (the first may still be taken).
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline, (try? await connection.send(" ")) != nil {
                try await Task.sleep(for: .milliseconds(100))
            }
            let received = try #require(await connection.readUntilClosed(), "the server closed the connection")
            #expect(!received.hasPrefix("HTTP/1.1 2"))
        }
        #expect(api.repository.allTrips.count == 5, "nothing was recorded")
    }

    /// One client address cannot take every connection: past its cap it is refused, while another address
    /// is still admitted.
    @Test func aConnectionOverTheCapOfItsAddressIsRefusedWhileOtherAddressesAreAdmitted() async throws {
        let api = await Self.api()
        let probe = "GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n"
        try await api.testLive(connectionLimits: Self.limits { $0.maximumConnectionsPerAddress = 2 }) { client in
            let port = try #require(client.port)
            let first = try await RawConnection.open(port: port, source: "127.0.0.3")
            try await first.send(probe)
            #expect(try #require(await first.readResponse()).hasPrefix("HTTP/1.1 200 "))
            let second = try await RawConnection.open(port: port, source: "127.0.0.3")
            try await second.send(probe)
            #expect(try #require(await second.readResponse()).hasPrefix("HTTP/1.1 200 "))
            let refused = try await RawConnection.open(port: port, source: "127.0.0.3")
            let received = await refused.readUntilClosed()
            try Self.expectProblem(received, status: 503, code: "unavailable")
            let other = try await RawConnection.open(port: port, source: "127.0.0.4")
            try await other.send(probe)
            #expect(try #require(await other.readResponse()).hasPrefix("HTTP/1.1 200 "))
            for connection in [first, second, refused, other] { await connection.close() }
        }
    }

    @Test func aClientThatStopsReadingAnExportIsDisconnectedAndItsSlotComesBack() async throws {
        // Several megabytes of NDJSON: more than the socket buffers and the channel's own hold, so the
        // export really stalls (with a few thousand trips it fits and simply finishes).
        let trips = InMemoryAnalystFixtures.mixed(count: 12_000)
        let api = await TestAPI(
            repository: InMemoryTripRepository(trips: []),
            analystRepository: InMemoryAnalystTripRepository(trips: trips),
            settings: {
                $0.maximumConcurrentExports = 1
            })
        let token = try await api.analystToken()
        let export = "/v1/trips?from=2026-01-01&to=2026-03-01"
        try await api.testLive(connectionLimits: Self.limits { $0.writeTimeout = Self.short }) { client in
            let stalled = try await RawConnection.open(port: try #require(client.port), receiveBufferSize: 16384)
            try await stalled.send(
                "GET \(export) HTTP/1.1\r\nHost: test\r\nAccept: application/x-ndjson\r\n"
                    + "Authorization: Bearer \(token)\r\n\r\n")
            #expect(try await Self.eventually { api.exportSlots.active == 1 }, "the export started")
            // The client reads nothing more: the server gives up on it and the export gives its slot back.
            #expect(try await Self.eventually { api.exportSlots.active == 0 }, "the slot came back")
            let received = try #require(await stalled.readUntilClosed(), "the server closed the connection")
            #expect(received.hasPrefix("HTTP/1.1 200 "))
            #expect(!received.hasSuffix("\r\n0\r\n\r\n"), "the export was cut off, not finished")
            #expect(received.split(separator: "\n").count < trips.count)
            // The slot serves the next export.
            try await client.execute(
                uri: "/v1/trips?from=2026-01-01&to=2026-01-02", method: .get,
                headers: [.authorization: "Bearer \(token)", .accept: "application/x-ndjson"]
            ) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).split(separator: "\n").count > 0)
            }
        }
        #expect(api.exportSlots.active == 0)
    }

    /// A client that drains an export a little at a time, slower than the minimum rate, is disconnected and
    /// the export gives its slot back; it never stopped reading, so the old rule (nothing taken) would not cut it.
    @Test func aClientThatDrainsAnExportTooSlowlyIsDisconnectedAndItsSlotComesBack() async throws {
        let trips = InMemoryAnalystFixtures.mixed(count: 12_000)
        let api = await TestAPI(
            repository: InMemoryTripRepository(trips: []),
            analystRepository: InMemoryAnalystTripRepository(trips: trips),
            settings: {
                $0.maximumConcurrentExports = 1
            })
        let token = try await api.analystToken()
        // 24 KiB a window: below the 32 KiB between the write buffer's watermarks, so a client this slow keeps
        // the channel unwritable for whole windows.
        let limits = Self.limits {
            $0.writeTimeout = .seconds(2)
            $0.minimumWriteRate = 12 * 1024
        }
        try await api.testLive(connectionLimits: limits) { client in
            let slow = try await RawConnection.open(port: try #require(client.port), receiveBufferSize: 4096)
            try await slow.send(
                "GET /v1/trips?from=2026-01-01&to=2026-03-01 HTTP/1.1\r\nHost: test\r\n"
                    + "Accept: application/x-ndjson\r\nAuthorization: Bearer \(token)\r\n\r\n")
            #expect(try await Self.eventually { api.exportSlots.active == 1 }, "the export started")
            // A piece (a few KiB with this receive buffer) a second: below 12 KiB/s, but never nothing for a
            // whole window; until the server gives up on the export.
            let deadline = ContinuousClock.now + .seconds(90)
            var pieces = 0
            while ContinuousClock.now < deadline, api.exportSlots.active == 1, await slow.receiveSome() != nil {
                pieces += 1
                try await Task.sleep(for: .seconds(1))
            }
            #expect(pieces > 1, "the client did read")
            #expect(api.exportSlots.active == 0, "the slot came back")
            // What the server's kernel still held arrives, then the end: the connection was closed, not the
            // export finished.
            let received = try #require(await slow.readUntilClosed(), "the server closed the connection")
            #expect(received.hasPrefix("HTTP/1.1 200 "))
            #expect(!received.hasSuffix("\r\n0\r\n\r\n"), "the export was cut off, not finished")
        }
    }

    @Test func aConnectionOverTheCapIsRefusedWith503AndRetryAfter() async throws {
        let api = await Self.api()
        let probe = "GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n"
        try await api.testLive(connectionLimits: Self.limits { $0.maximumConnections = 3 }) { client in
            let port = try #require(client.port)
            // The test client's own connection is the first of the three.
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            var held: [RawConnection] = []
            for _ in 0..<2 {
                let connection = try await RawConnection.open(port: port)
                try await connection.send(probe)
                #expect(try #require(await connection.readResponse()).hasPrefix("HTTP/1.1 200 "))
                held.append(connection)
            }
            let refused = try await RawConnection.open(port: port)
            let received = await refused.readUntilClosed()
            try Self.expectProblem(received, status: 503, code: "unavailable")
            #expect(Self.parts(received ?? "").head.contains("\r\nretry-after: 1"))
            await refused.close()
            // The connections admitted keep working; once one closes, a new one is admitted.
            try await held[0].send(probe)
            #expect(try #require(await held[0].readResponse()).hasPrefix("HTTP/1.1 200 "))
            await held[1].close()
            var admitted = false
            let deadline = ContinuousClock.now + .seconds(60)
            while !admitted, ContinuousClock.now < deadline {
                // Until the server has seen the close, a new connection may still be refused (and closed).
                let connection = try await RawConnection.open(port: port)
                try? await connection.send(probe)
                admitted = await connection.readResponse()?.hasPrefix("HTTP/1.1 200 ") ?? false
                await connection.close()
            }
            #expect(admitted)
            await held[0].close()
        }
    }

    /// A target far over the limit is refused before the decoder holds it; one just over it (10 KB) too; and
    /// one pipelined behind a request is refused after that request's answer, which keeps its place.
    @Test(arguments: [(20_000, false), (1_500, false), (1_500, true)])
    func anOverLongTargetIsAnswered414(parameters: Int, pipelined: Bool) async throws {
        let api = await Self.api()
        let query = (0..<parameters).map { "p\($0)=1" }.joined(separator: "&")
        let first = pipelined ? "GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n" : ""
        try await api.testLive(connectionLimits: Self.limits()) { client in
            let connection = try await RawConnection.open(port: try #require(client.port))
            try await connection.send(first + "GET /v1/riders/1/trips?\(query) HTTP/1.1\r\nHost: test\r\n\r\n")
            if pipelined {
                #expect(try #require(await connection.readResponse()).hasPrefix("HTTP/1.1 200 "))
            }
            try Self.expectProblem(await connection.readUntilClosed(), status: 414, code: "uri_too_long")
        }
    }

    @Test(arguments: [
        "X-Large: \(String(repeating: "a", count: 200_000))\r\n",
        (0..<150).map { "X-Field-\($0): \($0)\r\n" }.joined(),
    ])
    func anOversizedHeaderSectionIsAnswered431(headers: String) async throws {
        let api = await Self.api()
        try await api.testLive(connectionLimits: Self.limits()) { client in
            let connection = try await RawConnection.open(port: try #require(client.port))
            try await connection.send("GET /v1/riders/1/trips HTTP/1.1\r\nHost: test\r\n\(headers)\r\n")
            try Self.expectProblem(await connection.readUntilClosed(), status: 431, code: "headers_too_large")
        }
    }

    @Test func aRequestThatIsNotHTTPIsAnswered400AsAProblem() async throws {
        let api = await Self.api()
        try await api.testLive(connectionLimits: Self.limits()) { client in
            let connection = try await RawConnection.open(port: try #require(client.port))
            try await connection.send("GET /healthz HTTP/1.1\r\nHost: test\r\nNo colon here\r\n\r\n")
            try Self.expectProblem(await connection.readUntilClosed(), status: 400, code: "malformed_request")
        }
    }

    @Test func headersUnderTheLimitsAreServed() async throws {
        let api = await Self.api()
        let headers = (0..<90).map { "X-Field-\($0): \(String(repeating: "v", count: 200))\r\n" }.joined()
        try await api.testLive(connectionLimits: Self.limits()) { client in
            let connection = try await RawConnection.open(port: try #require(client.port))
            try await connection.send(
                "GET /healthz?\(String(repeating: "q", count: 8000)) HTTP/1.1\r\nHost: test\r\n\(headers)\r\n")
            #expect(try #require(await connection.readResponse()).hasPrefix("HTTP/1.1 "))
            await connection.close()
        }
    }
}
