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

/// `X-Forwarded-For` and `Forwarded` on real sockets. Test clients connect from loopback addresses: 127.0.0.1
/// is the trusted forwarder (a load balancer), 127.0.0.2 a client that reaches the instance directly. The
/// anonymous limit (a burst of 2, a clock that never moves) shows which bucket each request is charged to.
@Suite struct ForwardedForConnectionTests {
    typealias API = TestAPI<InMemoryTripRepository>

    private static let balancer = "127.0.0.1"
    private static let direct = "127.0.0.2"

    private static func api(
        _ field: TrustedForwarders.Field = .xForwardedFor, trusting entries: [String] = [balancer]
    ) async throws -> API {
        let clock = RateLimitTests.ManualClock()
        let forwarders = TrustedForwarders(addresses: try TrustedProxies(entries), field: field)
        return await TestAPI(
            repository: InMemoryTripRepository(trips: TripFixtures.history(riderID: 1, count: 5)), now: { clock.now },
            settings: {
                $0.rateLimits = RateLimits.Configuration(
                    rider: RateLimitPolicy(name: "rider", requestsPerSecond: 1, burst: 100)!,
                    analyst: RateLimitPolicy(name: "analyst", requestsPerSecond: 1, burst: 100)!,
                    service: RateLimitPolicy(name: "service", requestsPerSecond: 1, burst: 100)!,
                    anonymous: RateLimitPolicy(name: "anonymous", requestsPerSecond: 1, burst: 2)!)
                $0.trustedForwarders = forwarders
            })
    }

    /// An anonymous read with `fields` (whole lines, `Name: value`).
    private static func anonymousRead(_ fields: [String]) -> String {
        "GET /v1/riders/1/trips HTTP/1.1\r\nHost: test\r\n" + fields.map { $0 + "\r\n" }.joined() + "\r\n"
    }

    private static func status(_ response: String?) -> Int? {
        guard let response, response.hasPrefix("HTTP/1.1 ") else { return nil }
        return Int(response.dropFirst(9).prefix(3))
    }

    /// The statuses of anonymous reads sent one after the other on `connection`, one per element of `requests`
    /// (each the fields of one read).
    private static func reads(_ requests: [[String]], on connection: RawConnection) async throws -> [Int?] {
        var statuses: [Int?] = []
        for fields in requests {
            try await connection.send(anonymousRead(fields))
            statuses.append(status(await connection.readResponse()))
        }
        return statuses
    }

    @Test func twoClientsBehindOneTrustedBalancerHaveAnonymousBucketsApart() async throws {
        let api = try await Self.api()
        try await api.testLive(connectionLimits: ConnectionLimitTests.limits()) { client in
            let port = try #require(client.port)
            let balancer = try await RawConnection.open(port: port, source: Self.balancer)
            let first = ["X-Forwarded-For: 203.0.113.7"]
            let second = ["X-Forwarded-For: 203.0.113.8"]
            #expect(try await Self.reads([first, first, first], on: balancer) == [401, 401, 429])
            // The other client, on the same connection of the balancer, has its own bucket.
            #expect(try await Self.reads([second, second], on: balancer) == [401, 401])
            // A request the balancer sends without the field (its own health check) counts under the balancer.
            #expect(try await Self.reads([[], [], []], on: balancer) == [401, 401, 429])
            // The first client is still over its limit, from another connection of the balancer too.
            let again = try await RawConnection.open(port: port, source: Self.balancer)
            #expect(try await Self.reads([first, ["X-Forwarded-For: 203.0.113.9"]], on: again) == [429, 401])
            for connection in [balancer, again] { await connection.close() }
        }
    }

    @Test func theFieldOfAPeerThatIsNotTrustedIsNotRead() async throws {
        let api = try await Self.api()
        try await api.testLive(connectionLimits: ConnectionLimitTests.limits()) { client in
            let port = try #require(client.port)
            let direct = try await RawConnection.open(port: port, source: Self.direct)
            // Each request names another client: all of them count under the peer.
            let statuses = try await Self.reads(
                [
                    ["X-Forwarded-For: 203.0.113.7"], ["X-Forwarded-For: 203.0.113.8"],
                    ["X-Forwarded-For: 203.0.113.9"],
                ], on: direct)
            #expect(statuses == [401, 401, 429])
            // Those clients' own buckets were never charged.
            let balancer = try await RawConnection.open(port: port, source: Self.balancer)
            #expect(try await Self.reads([["X-Forwarded-For: 203.0.113.7"]], on: balancer) == [401])
            for connection in [direct, balancer] { await connection.close() }
        }
    }

    /// A client that writes addresses of its own in front of the field still counts as the address the
    /// balancer appended: the rightmost one that is not a trusted hop.
    @Test func aClientPrependingAddressesCountsAsTheRightmostUntrustedHop() async throws {
        let api = try await Self.api(trusting: [Self.balancer, "10.0.0.0/8"])
        try await api.testLive(connectionLimits: ConnectionLimitTests.limits()) { client in
            let port = try #require(client.port)
            let balancer = try await RawConnection.open(port: port, source: Self.balancer)
            #expect(
                try await Self.reads(Array(repeating: ["X-Forwarded-For: 203.0.113.7"], count: 2), on: balancer) == [
                    401, 401,
                ])
            let spoofs: [[String]] = [
                // A fake address in front, as the client sent it.
                ["X-Forwarded-For: 198.51.100.1, 203.0.113.7"],
                // Behind a second trusted hop (10.0.0.5), with a garbage entry and a fake trusted one in front.
                ["X-Forwarded-For: not-an-address, 10.9.9.9, 203.0.113.7, 10.0.0.5"],
                // Two lines, the client's first.
                ["X-Forwarded-For: 198.51.100.2", "X-Forwarded-For: 203.0.113.7"],
                // The other field, which this balancer does not write, is not read.
                ["Forwarded: for=198.51.100.3", "X-Forwarded-For: 203.0.113.7"],
            ]
            #expect(try await Self.reads(spoofs, on: balancer) == [429, 429, 429, 429])
            // The fake addresses' buckets are whole.
            #expect(
                try await Self.reads(Array(repeating: ["X-Forwarded-For: 198.51.100.1"], count: 2), on: balancer) == [
                    401, 401,
                ])
            await balancer.close()
        }
    }

    @Test func aFieldThatNamesNoClientLeavesTheBalancerAndIsNoError() async throws {
        let api = try await Self.api()
        try await api.testLive(connectionLimits: ConnectionLimitTests.limits()) { client in
            let port = try #require(client.port)
            let balancer = try await RawConnection.open(port: port, source: Self.balancer)
            let statuses = try await Self.reads(
                [["X-Forwarded-For: unknown"], ["X-Forwarded-For: client.example.com"], ["X-Forwarded-For: _hidden"]],
                on: balancer)
            #expect(statuses == [401, 401, 429])
            await balancer.close()
        }
    }

    @Test func withForwardedConfiguredItIsTheOneFieldRead() async throws {
        let api = try await Self.api(.forwarded)
        try await api.testLive(connectionLimits: ConnectionLimitTests.limits()) { client in
            let port = try #require(client.port)
            let balancer = try await RawConnection.open(port: port, source: Self.balancer)
            let statuses = try await Self.reads(
                [
                    ["Forwarded: for=\"[2001:db8::7]:4711\";proto=https"],
                    ["X-Forwarded-For: 203.0.113.8", "Forwarded: for=\"[2001:db8::7]\""],
                    // The same client's /64.
                    ["Forwarded: for=198.51.100.1, for=\"[2001:db8::8]\""],
                    // Another client.
                    ["Forwarded: for=203.0.113.50"],
                ], on: balancer)
            #expect(statuses == [401, 401, 429, 401])
            // X-Forwarded-For alone is not read: the three clients it names count as the balancer, together.
            let unread = try await Self.reads(
                [
                    ["X-Forwarded-For: 203.0.113.60"], ["X-Forwarded-For: 203.0.113.61"],
                    ["X-Forwarded-For: 203.0.113.62"],
                ],
                on: balancer)
            #expect(unread == [401, 401, 429])
            await balancer.close()
        }
    }

    /// The per-address connection cap leaves a trusted balancer's connections out (they carry many clients);
    /// a direct client is still capped.
    @Test func aTrustedBalancersConnectionsAreNotCappedPerAddress() async throws {
        let api = try await Self.api()
        try await api.testLive(
            connectionLimits: ConnectionLimitTests.limits { $0.maximumConnectionsPerAddress = 1 }
        ) { client in
            let port = try #require(client.port)
            var balancers: [RawConnection] = []
            for _ in 0..<3 {
                let connection = try await RawConnection.open(port: port, source: Self.balancer)
                try await connection.send("GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
                #expect(Self.status(await connection.readResponse()) == 200)
                balancers.append(connection)
            }
            let first = try await RawConnection.open(port: port, source: Self.direct)
            try await first.send("GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
            #expect(Self.status(await first.readResponse()) == 200)
            let second = try await RawConnection.open(port: port, source: Self.direct)
            #expect(Self.status(await second.readUntilClosed()) == 503)
            for connection in balancers + [first, second] { await connection.close() }
        }
    }

    /// Behind a PROXY protocol proxy, the field is read when the client its header names is a trusted
    /// forwarder, and not otherwise.
    @Test func behindAProxyProtocolProxyTheClientItNamesMustBeTheForwarder() async throws {
        let api = try await Self.api(trusting: ["10.0.0.0/8"])
        try await api.testLive(
            connectionLimits: ConnectionLimitTests.limits(), trustedProxies: try TrustedProxies([Self.balancer])
        ) { client in
            let port = try #require(client.port)
            // haproxy names a load balancer at 10.1.2.3, which names the client.
            let viaBalancer = try await RawConnection.open(port: port, source: Self.balancer)
            try await viaBalancer.send(bytes: ProxyHeaderTests.ipv4([10, 1, 2, 3]))
            let forwarded = ["X-Forwarded-For: 203.0.113.7"]
            let statuses = try await Self.reads(
                [forwarded, forwarded, forwarded, ["X-Forwarded-For: 203.0.113.8"]], on: viaBalancer)
            #expect(statuses == [401, 401, 429, 401])
            // haproxy names a client at 198.51.100.5 directly: its field is its own, not read.
            let direct = try await RawConnection.open(port: port, source: Self.balancer)
            try await direct.send(bytes: ProxyHeaderTests.ipv4([198, 51, 100, 5]))
            let unread = try await Self.reads(
                [
                    ["X-Forwarded-For: 203.0.113.20"], ["X-Forwarded-For: 203.0.113.21"],
                    ["X-Forwarded-For: 203.0.113.22"],
                ],
                on: direct)
            #expect(unread == [401, 401, 429])
            for connection in [viaBalancer, direct] { await connection.close() }
        }
    }
}
