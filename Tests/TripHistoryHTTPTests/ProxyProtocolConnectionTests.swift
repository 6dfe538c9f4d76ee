import Foundation
import HummingbirdTesting
import NIOCore
import Testing
import TripHistoryApp
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryTestSupport

@testable import TripHistoryAPI
@testable import TripHistoryHTTP

/// The PROXY protocol on real sockets: behind a trusted proxy (here every test client, on 127.0.0.1), the
/// per-address connection cap and the anonymous rate limit count each client the header names apart, and
/// the proxy's own address is not charged; without trusted proxies a PROXY header is a malformed request.
@Suite struct ProxyProtocolConnectionTests {
    typealias API = TestAPI<InMemoryTripRepository>

    private static let loopback = try! TrustedProxies(["127.0.0.1"])
    private static let anonymousRead = "GET /v1/riders/1/trips HTTP/1.1\r\nHost: test\r\n\r\n"
    private static let probe = "GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n"

    private static func api(clock: RateLimitTests.ManualClock = RateLimitTests.ManualClock()) async -> API {
        await TestAPI(
            repository: InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 5)), now: { clock.now },
            settings: {
                $0.rateLimits = RateLimits.Configuration(
                    rider: RateLimitPolicy(name: "rider", requestsPerSecond: 1, burst: 100)!,
                    analyst: RateLimitPolicy(name: "analyst", requestsPerSecond: 1, burst: 100)!,
                    service: RateLimitPolicy(name: "service", requestsPerSecond: 1, burst: 100)!,
                    anonymous: RateLimitPolicy(name: "anonymous", requestsPerSecond: 1, burst: 2)!)
            })
    }

    /// A connection from 127.0.0.1 that starts with a PROXY header naming `source` (nil: a LOCAL header).
    private static func open(port: Int, as source: [UInt8]?) async throws -> RawConnection {
        let connection = try await RawConnection.open(port: port)
        let header =
            source.map { ProxyHeaderTests.ipv4($0) }
            ?? ProxyHeaderTests.header(command: 0, family: 0, addresses: [])
        try await connection.send(bytes: header)
        return connection
    }

    private static func status(_ response: String?) -> Int? {
        guard let response, response.hasPrefix("HTTP/1.1 ") else { return nil }
        return Int(response.dropFirst(9).prefix(3))
    }

    /// `count` anonymous reads on `connection`, one after the other; their statuses.
    private static func reads(_ count: Int, on connection: RawConnection) async throws -> [Int?] {
        var statuses: [Int?] = []
        for _ in 0..<count {
            try await connection.send(anonymousRead)
            statuses.append(status(await connection.readResponse()))
        }
        return statuses
    }

    @Test func theAnonymousRateLimitCountsTheClientTheHeaderNamesNotTheProxy() async throws {
        let api = await Self.api()
        try await api.testLive(connectionLimits: ConnectionLimitTests.limits(), trustedProxies: Self.loopback) {
            client in
            let port = try #require(client.port)
            // The header and the first request in one write.
            let first = try await RawConnection.open(port: port)
            try await first.send(bytes: ProxyHeaderTests.ipv4([203, 0, 113, 7]) + Array(Self.anonymousRead.utf8))
            #expect(Self.status(await first.readResponse()) == 401)
            #expect(try await Self.reads(2, on: first) == [401, 429])
            // The same client on another connection of the proxy is still over its limit.
            let again = try await Self.open(port: port, as: [203, 0, 113, 7])
            #expect(try await Self.reads(1, on: again) == [429])
            // Another client behind the same proxy, and the proxy's own connection (LOCAL), are not.
            let other = try await Self.open(port: port, as: [203, 0, 113, 8])
            #expect(try await Self.reads(2, on: other) == [401, 401])
            let local = try await Self.open(port: port, as: nil)
            #expect(try await Self.reads(2, on: local) == [401, 401])
            for connection in [first, again, other, local] { await connection.close() }
        }
    }

    @Test func theHeaderSplitIntoSingleBytesIsReadAndTheRequestAfterItIntact() async throws {
        let api = await Self.api()
        try await api.testLive(connectionLimits: ConnectionLimitTests.limits(), trustedProxies: Self.loopback) {
            client in
            let port = try #require(client.port)
            let connection = try await RawConnection.open(port: port)
            for byte in ProxyHeaderTests.ipv4([203, 0, 113, 9]) {
                try await connection.send(bytes: [byte])
            }
            #expect(try await Self.reads(3, on: connection) == [401, 401, 429])
            // Counted as 203.0.113.9: the proxy's own allowance is whole.
            let local = try await Self.open(port: port, as: nil)
            #expect(try await Self.reads(2, on: local) == [401, 401])
        }
    }

    /// The per-address cap applies to the client the header names, once the header is read, and a closed
    /// connection gives its client's slot back.
    @Test func theConnectionCapOfAnAddressCountsTheClientTheHeaderNames() async throws {
        let api = await Self.api()
        try await api.testLive(
            connectionLimits: ConnectionLimitTests.limits { $0.maximumConnectionsPerAddress = 1 },
            trustedProxies: Self.loopback
        ) { client in
            let port = try #require(client.port)
            let first = try await Self.open(port: port, as: [203, 0, 113, 7])
            try await first.send(Self.probe)
            #expect(Self.status(await first.readResponse()) == 200)
            let second = try await Self.open(port: port, as: [203, 0, 113, 7])
            let refused = await second.readUntilClosed()
            #expect(Self.status(refused) == 503)
            let other = try await Self.open(port: port, as: [203, 0, 113, 8])
            try await other.send(Self.probe)
            #expect(Self.status(await other.readResponse()) == 200)
            await first.close()
            // The slot comes back once the server has seen the close.
            var status: Int?
            let deadline = ContinuousClock.now + .seconds(60)
            repeat {
                let next = try await Self.open(port: port, as: [203, 0, 113, 7])
                try? await next.send(Self.probe)
                status = Self.status(await next.readResponse())
                await next.close()
                if status != 200 { try await Task.sleep(for: .milliseconds(20)) }
            } while status != 200 && ContinuousClock.now < deadline
            #expect(status == 200)
            await other.close()
        }
    }

    @Test func aTrustedPeerWithoutAValidHeaderIsClosedWithoutAnAnswer() async throws {
        let api = await Self.api()
        try await api.testLive(connectionLimits: ConnectionLimitTests.limits(), trustedProxies: Self.loopback) {
            client in
            let port = try #require(client.port)
            let plain = try await RawConnection.open(port: port)
            try await plain.send(Self.probe)
            #expect(await plain.readUntilClosed() == "")
            let oversized = try await RawConnection.open(port: port)
            try await oversized.send(bytes: ProxyHeader.signature + [0x21, 0x11, 0xFF, 0xFF])
            #expect(await oversized.readUntilClosed() == "")
        }
    }

    @Test func aTrustedPeerWhoseHeaderDoesNotArriveIsClosedAfterTheHeadTimeout() async throws {
        let api = await Self.api()
        try await api.testLive(
            connectionLimits: ConnectionLimitTests.limits { $0.headTimeout = .milliseconds(300) },
            trustedProxies: Self.loopback
        ) { client in
            let connection = try await RawConnection.open(port: try #require(client.port))
            // On a busy machine the timeout may close the connection before the bytes are sent: closed either way.
            try? await connection.send(bytes: Array(ProxyHeaderTests.ipv4([203, 0, 113, 7]).prefix(20)))
            #expect(await connection.readUntilClosed() == "")
        }
    }

    /// With no trusted proxy (the default), or when the peer is not one, the header is the start of a
    /// malformed request: answered 400 and closed, and the client is still counted under its own address.
    @Test(arguments: [TrustedProxies(), try! TrustedProxies(["10.0.0.0/8"])])
    func aHeaderFromAPeerThatIsNotTrustedIsAMalformedRequest(trusted: TrustedProxies) async throws {
        let api = await Self.api()
        try await api.testLive(connectionLimits: ConnectionLimitTests.limits(), trustedProxies: trusted) { client in
            let port = try #require(client.port)
            let spoofing = try await RawConnection.open(port: port)
            try await spoofing.send(bytes: ProxyHeaderTests.ipv4([203, 0, 113, 7]) + Array(Self.anonymousRead.utf8))
            let received = try #require(await spoofing.readUntilClosed())
            #expect(Self.status(received) == 400)
            #expect(received.contains("\"code\":\"malformed_request\""))
            let plain = try await RawConnection.open(port: port)
            #expect(try await Self.reads(3, on: plain) == [401, 401, 429])
        }
    }
}
