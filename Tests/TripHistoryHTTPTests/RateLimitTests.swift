import CoreMetrics
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Prometheus
import Synchronization
import Testing
import TripHistoryAPI
import TripHistoryApp
import TripHistoryCache
import TripHistoryFakes
import TripHistoryTestSupport

/// The rate limits on a real socket: a caller over its burst gets a 429 with `Retry-After` whether the
/// early-read handler (warm hits, misses) or the router would answer, every response carries the fields,
/// other callers are unaffected, requests without a valid token count per address, the probes never count,
/// and without limits nothing is refused. Time is a clock the test moves, so no test depends on speed.
@Suite struct RateLimitTests {
    typealias API = TestAPI<InMemoryTripRepository>

    final class ManualClock: Sendable {
        private let nanoseconds = Atomic<UInt64>(1_000_000_000_000)
        var now: UInt64 { nanoseconds.load(ordering: .relaxed) }
        func advance(seconds: Double) { nanoseconds.add(UInt64(seconds * 1e9), ordering: .relaxed) }
    }

    private static let limits = RateLimits.Configuration(
        rider: RateLimitPolicy(name: "rider", requestsPerSecond: 1, burst: 3)!,
        analyst: RateLimitPolicy(name: "analyst", requestsPerSecond: 1, burst: 2)!,
        service: RateLimitPolicy(name: "service", requestsPerSecond: 1, burst: 2)!,
        anonymous: RateLimitPolicy(name: "anonymous", requestsPerSecond: 1, burst: 2)!
    )

    private static func api(
        clock: ManualClock, limits: RateLimits.Configuration? = limits, registry: PrometheusCollectorRegistry? = nil
    ) async -> API {
        let repository = InMemoryTripRepository(
            trips: TripFixtures.history(riderID: 1, count: 10)
                + TripFixtures.history(riderID: 2, count: 5, firstID: 100))
        var exposition: (@Sendable () -> [UInt8])?
        var factory: any MetricsFactory = NOOPMetricsHandler.instance
        if let registry {
            exposition = { registry.emitToBuffer() }
            factory = PrometheusMetricsFactory(registry: registry)
        }
        return await TestAPI(
            repository: repository, metrics: exposition, rateLimitMetrics: factory, now: { clock.now },
            settings: {
                $0.cache = TripResponseCache()
                $0.rateLimits = limits
            })
    }

    private static func get(
        _ client: any TestClientProtocol, _ uri: String, token: String? = nil, _ headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var fields = headers
        if let token { fields[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: uri, method: .get, headers: fields) { $0 }
    }

    private static func expectRefused(_ response: TestResponse, policy: String, state: String) {
        #expect(response.status == .tooManyRequests)
        #expect(response.headers[.retryAfter] == "1")
        #expect(response.headers[.contentType] == "application/problem+json")
        #expect(response.headers[RateLimitPolicy.policyName] == policy)
        #expect(response.headers[RateLimitPolicy.stateName] == state)
        #expect(response.headers[HTTPField.Name("X-Request-ID")!] != nil)
        let body = response.json()
        #expect(body.string("code") == "rate_limited")
        #expect(body["retryable"] as? Bool == true)
        #expect(body["status"] as? Int == 429)
    }

    @Test func aRiderOverItsBurstIsRefusedOnWarmHitsAndMissesAndOtherRidersAreNot() async throws {
        let clock = ManualClock()
        let api = await Self.api(clock: clock)
        let answers = EarlyReadHandlerTests.Answers()
        let (alice, bob) = (try await api.riderToken(1), try await api.riderToken(2))
        try await api.testLive(onEarlyAnswer: answers.record) { client in
            // The first read verifies the token, so the router answers it and counts it.
            let first = try await Self.get(client, "/v1/riders/1/trips?limit=2", token: alice)
            #expect(first.status == .ok)
            #expect(first.headers[RateLimitPolicy.policyName] == #""rider";q=3;w=3"#)
            #expect(first.headers[RateLimitPolicy.stateName] == #""rider";r=2;t=1"#)
            #expect(answers.stored + answers.computed == 0)
            // A warm hit, then a miss (another page), both answered before the router, both counted.
            let warm = try await Self.get(client, "/v1/riders/1/trips?limit=2", token: alice)
            #expect(warm.status == .ok)
            #expect(answers.stored == 1)
            #expect(warm.headers[RateLimitPolicy.stateName] == #""rider";r=1;t=2"#)
            let tag = try #require(warm.headers[.eTag])
            let notModified = try await Self.get(
                client, "/v1/riders/1/trips?limit=2", token: alice, [.ifNoneMatch: tag])
            #expect(notModified.status == .notModified)
            #expect(notModified.headers[RateLimitPolicy.policyName] == #""rider";q=3;w=3"#)
            #expect(notModified.headers[RateLimitPolicy.stateName] == #""rider";r=0;t=3"#)

            // Over the burst: the warm hit is taken by the handler (it found the stored response) and refused
            // there, as the router would refuse it.
            let refused = try await Self.get(client, "/v1/riders/1/trips?limit=2", token: alice)
            Self.expectRefused(refused, policy: #""rider";q=3;w=3"#, state: #""rider";r=0;t=3"#)
            #expect(answers.stored == 3)
            // A read the router answers (a problem in the request) is refused the same way.
            let byRouter = try await Self.get(client, "/v1/riders/1/trips?limit=banana", token: alice)
            Self.expectRefused(byRouter, policy: #""rider";q=3;w=3"#, state: #""rider";r=0;t=3"#)
            // Another rider has a bucket of their own.
            let other = try await Self.get(client, "/v1/riders/2/trips", token: bob)
            #expect(other.status == .ok)
            #expect(other.headers[RateLimitPolicy.stateName] == #""rider";r=2;t=1"#)

            // One request comes back each second.
            clock.advance(seconds: 1)
            let again = try await Self.get(client, "/v1/riders/1/trips?limit=2", token: alice)
            #expect(again.status == .ok)
            #expect(again.headers[RateLimitPolicy.stateName] == #""rider";r=0;t=3"#)
            Self.expectRefused(
                try await Self.get(client, "/v1/riders/1/trips/3", token: alice), policy: #""rider";q=3;w=3"#,
                state: #""rider";r=0;t=3"#)
        }
    }

    @Test func withoutTheEarlyHandlerTheRouterRefusesTheSameWay() async throws {
        let clock = ManualClock()
        let api = await Self.api(clock: clock)
        let alice = try await api.riderToken(1)
        try await api.testLive(earlyReads: false) { client in
            for remaining in [2, 1, 0] {
                let response = try await Self.get(client, "/v1/riders/1/trips", token: alice)
                #expect(response.status == .ok)
                #expect(response.headers[RateLimitPolicy.stateName]?.hasPrefix(#""rider";r=\#(remaining);"#) == true)
            }
            let refused = try await Self.get(client, "/v1/riders/1/trips", token: alice)
            Self.expectRefused(refused, policy: #""rider";q=3;w=3"#, state: #""rider";r=0;t=3"#)
            // Errors of the routes carry the fields too: another rider's trips are a 404 for alice.
            clock.advance(seconds: 1)
            let notFound = try await Self.get(client, "/v1/riders/2/trips", token: alice)
            #expect(notFound.status == .notFound)
            #expect(notFound.headers[RateLimitPolicy.stateName] == #""rider";r=0;t=3"#)
        }
    }

    @Test func requestsWithoutAValidTokenAreLimitedPerAddressAndTheProbesNever() async throws {
        let clock = ManualClock()
        let registry = PrometheusCollectorRegistry()
        let api = await Self.api(clock: clock, registry: registry)
        let alice = try await api.riderToken(1)
        try await api.testLive { client in
            let spec = try await Self.get(client, "/openapi.yaml")
            #expect(spec.status == .ok)
            #expect(spec.headers[RateLimitPolicy.policyName] == #""anonymous";q=2;w=2"#)
            #expect(spec.headers[RateLimitPolicy.stateName] == #""anonymous";r=1;t=1"#)
            let missing = try await Self.get(client, "/v1/riders/1/trips")
            #expect(missing.status == .unauthorized)
            #expect(missing.headers[RateLimitPolicy.stateName] == #""anonymous";r=0;t=2"#)
            // A bad token is no token: it counts in the address's bucket, which is empty now.
            let forged = try await Self.get(client, "/v1/riders/1/trips", token: alice + "x")
            Self.expectRefused(forged, policy: #""anonymous";q=2;w=2"#, state: #""anonymous";r=0;t=2"#)
            Self.expectRefused(
                try await Self.get(client, "/nowhere"), policy: #""anonymous";q=2;w=2"#, state: #""anonymous";r=0;t=2"#)
            // A valid token from the same address is counted as its caller.
            #expect(try await Self.get(client, "/v1/riders/1/trips", token: alice).status == .ok)
            // The probes are never counted nor refused, and carry no fields (the scrape has a listener of its
            // own, without limits).
            for path in ["/healthz", "/readyz"] {
                for _ in 0..<5 {
                    let probe = try await Self.get(client, path)
                    #expect(probe.status == .ok, "\(path)")
                    #expect(probe.headers[RateLimitPolicy.stateName] == nil, "\(path)")
                }
            }
        }
        try await api.testMetrics { client in
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(metrics.contains(#"trip_history_rate_limited_requests_total{role="anonymous"} 2"#))
            #expect(metrics.contains(#"trip_history_rate_limited_requests_total{role="rider"} 0"#))
            #expect(metrics.contains("trip_history_rate_limit_buckets 2.0"), "the address's and alice's")
        }
    }

    /// A token of this service that has just expired still says whose request it is: it is charged to its
    /// subject, so clients sharing an address (behind a proxy) with one whose token ran out keep their own
    /// anonymous allowance, and the 401 is not turned into a 429 by others' traffic.
    @Test func aJustExpiredTokenIsChargedToItsSubjectNotToTheAddress() async throws {
        let clock = ManualClock()
        let api = await Self.api(clock: clock)
        let expired = try await api.tokens.issue(
            role: .rider, subject: "7", timeToLive: .seconds(60), now: Date().addingTimeInterval(-70))
        try await api.testLive { client in
            for _ in 0..<3 {
                let response = try await Self.get(client, "/v1/riders/7/trips", token: expired)
                #expect(response.status == .unauthorized)
                #expect(response.headers[RateLimitPolicy.policyName] == #""rider";q=3;w=3"#)
            }
            Self.expectRefused(
                try await Self.get(client, "/v1/riders/7/trips", token: expired), policy: #""rider";q=3;w=3"#,
                state: #""rider";r=0;t=3"#)
            // The address's anonymous allowance is untouched.
            let spec = try await Self.get(client, "/openapi.yaml")
            #expect(spec.status == .ok)
            #expect(spec.headers[RateLimitPolicy.stateName] == #""anonymous";r=1;t=1"#)
        }
    }

    /// A token that expired longer ago than the grace is charged to the address it comes from, like no token:
    /// whoever finds an old token cannot drain its owner's bucket, and the owner's valid token keeps working.
    @Test func aLongExpiredTokenIsChargedToTheAddressAndLeavesItsOwnersBucketAlone() async throws {
        let clock = ManualClock()
        let api = await Self.api(clock: clock)
        let grace = Double(AccessTokens.expiredTokenGrace.components.seconds)
        let expired = try await api.tokens.issue(
            role: .rider, subject: "7", timeToLive: .seconds(60), now: Date().addingTimeInterval(-70 - grace))
        let valid = try await api.riderToken(7)
        try await api.testLive { client in
            for state in [#""anonymous";r=1;t=1"#, #""anonymous";r=0;t=2"#] {
                let response = try await Self.get(client, "/v1/riders/7/trips", token: expired)
                #expect(response.status == .unauthorized)
                #expect(response.headers[RateLimitPolicy.stateName] == state)
            }
            Self.expectRefused(
                try await Self.get(client, "/v1/riders/7/trips", token: expired), policy: #""anonymous";q=2;w=2"#,
                state: #""anonymous";r=0;t=2"#)
            // The owner's bucket is full: its first request finds all three requests of the burst.
            let owner = try await Self.get(client, "/v1/riders/7/trips", token: valid)
            #expect(owner.status == .ok)
            #expect(owner.headers[RateLimitPolicy.stateName] == #""rider";r=2;t=1"#)
        }
    }

    @Test func analystsAndServicesHaveTheirOwnPolicies() async throws {
        let clock = ManualClock()
        let api = await Self.api(clock: clock)
        let (analyst, service) = (try await api.analystToken(), try await api.serviceToken())
        try await api.testLive { client in
            for _ in 0..<2 {
                let stats = try await Self.get(client, "/v1/trips/stats?from=2024-01-01&to=2024-01-31", token: analyst)
                #expect(stats.headers[RateLimitPolicy.policyName] == #""analyst";q=2;w=2"#)
                #expect(stats.status != .tooManyRequests)
            }
            Self.expectRefused(
                try await Self.get(client, "/v1/trips", token: analyst), policy: #""analyst";q=2;w=2"#,
                state: #""analyst";r=0;t=2"#)
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(service)"
            headers[.contentType] = "application/json"
            for (day, expected) in zip(5..., [HTTPResponse.Status.created, .created, .tooManyRequests]) {
                let body = TripFixtures.recordBody(rider: 1, requestedAt: "2026-01-0\(day)T10:00:00Z")
                let response = try await client.execute(
                    uri: "/v1/trips", method: .post, headers: headers, body: ByteBuffer(string: body)
                ) { $0 }
                #expect(response.status == expected)
                #expect(response.headers[RateLimitPolicy.policyName] == #""service";q=2;w=2"#)
            }
        }
    }

    @Test func withoutLimitsNothingIsRefusedAndNoFieldsAreSent() async throws {
        let clock = ManualClock()
        let api = await Self.api(clock: clock, limits: nil)
        let answers = EarlyReadHandlerTests.Answers()
        let alice = try await api.riderToken(1)
        try await api.testLive(onEarlyAnswer: answers.record) { client in
            for _ in 0..<20 {
                let response = try await Self.get(client, "/v1/riders/1/trips", token: alice)
                #expect(response.status == .ok)
                #expect(response.headers[RateLimitPolicy.policyName] == nil)
                #expect(response.headers[RateLimitPolicy.stateName] == nil)
                let anonymous = try await Self.get(client, "/openapi.yaml")
                #expect(anonymous.status == .ok)
                #expect(anonymous.headers[RateLimitPolicy.stateName] == nil)
            }
            #expect(answers.stored == 19)
        }
    }
}
