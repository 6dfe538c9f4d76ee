import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Synchronization
import Testing
import TripHistoryAPI
import TripHistoryApp
import TripHistoryDomain
import TripHistoryFakes
import TripHistoryHTTP
import TripHistoryTestSupport

/// The identity provider's tokens end to end: its JWKS served over a real loopback socket, fetched by
/// `JWKSFetcher` through `URLSession` and kept fresh by `JWKSKeySource.run()` as `serve` runs it, and the API on
/// a live server accepting the provider's rider and analyst tokens, then a rotated key.
@Suite struct IdentityProviderRouteTests {
    typealias Provider = TestIdentityProvider
    typealias API = TestAPI<InMemoryTripRepository>
    static let jwksPath = "/.well-known/jwks.json"

    let trips = TripFixtures.history(riderID: 1, count: 3) + TripFixtures.history(riderID: 2, count: 3, firstID: 100)

    /// The provider's JWKS endpoint: the current document with a long `max-age`, counting requests.
    final class JWKSEndpoint: Sendable {
        private let state: Mutex<(document: [UInt8], requests: Int)>

        init(document: [UInt8]) {
            state = Mutex((document, 0))
        }

        var requests: Int { state.withLock { $0.requests } }

        func serve(_ document: [UInt8]) {
            state.withLock { $0.document = document }
        }

        func application() -> some ApplicationProtocol {
            let router = Router()
            router.get(RouterPath(stringLiteral: IdentityProviderRouteTests.jwksPath)) { _, _ -> Response in
                let document = self.state.withLock { state in
                    state.requests += 1
                    return state.document
                }
                return Response(
                    status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=3600"],
                    body: .init(byteBuffer: ByteBuffer(bytes: document)))
            }
            return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        }
    }

    @Test func theProvidersRidersAndAnalystsUseTheAPIAndARotatedKeyIsPickedUp() async throws {
        let first = try await Provider.rsaKey(kid: "2026-11")
        let endpoint = JWKSEndpoint(document: Provider.jwks([first]))
        let trips = trips
        try await endpoint.application().test(.live) { jwksClient in
            let port = try #require(jwksClient.port)
            let fetcher = JWKSFetcher(url: try #require(URL(string: "http://127.0.0.1:\(port)\(Self.jwksPath)")))
            let keys = JWKSKeySource(logger: Logger(label: "test")) { try await fetcher.fetch() }
            let api = await TestAPI(
                repository: InMemoryTripRepository(trips: trips),
                analystRepository: InMemoryAnalystTripRepository(trips: trips),
                settings: {
                    $0.identityProvider = IdentityProviderTokens(
                        configuration: .init(issuer: Provider.issuer, audience: Provider.audience), keys: keys)
                })
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await keys.run() }
                // `run()` fetches at start; wait for it as a client would wait for the service to be ready.
                for _ in 0..<100 where await !keys.hasKeys { try await Task.sleep(for: .milliseconds(50)) }
                #expect(await keys.hasKeys)
                #expect(endpoint.requests == 1)

                let rider = API.bearer(
                    try await first.token(Provider.claims(role: .string("rider"), subject: .string("1"))))
                let analyst = API.bearer(
                    try await first.token(Provider.claims(role: .string("analyst"), subject: .string("alice"))))
                try await api.testLive { client in
                    try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: rider) { response in
                        #expect(response.status == .ok)
                        #expect(response.json().tripIDs == ["3", "2", "1"])
                    }
                    for uri in ["/v1/riders/2/trips", "/v1/riders/2/trips/100", "/v1/riders/1/trips/100"] {
                        try await client.execute(uri: uri, method: .get, headers: rider) { response in
                            #expect(response.status == .notFound, "\(uri)")
                        }
                    }
                    try await client.execute(
                        uri: "/v1/trips?from=2023-11-01&to=2023-12-01&rider_id=2", method: .get, headers: analyst
                    ) { response in
                        #expect(response.status == .ok)
                        #expect(response.json().tripIDs == ["102", "101", "100"])
                    }

                    // The provider rotates to a new key and drops the old one; the new kid is unknown until the
                    // document is fetched again, which that first token causes.
                    let second = try await Provider.ecKey(kid: "2026-12")
                    endpoint.serve(Provider.jwks([second]))
                    let rotated = API.bearer(
                        try await second.token(Provider.claims(role: .string("rider"), subject: .string("2"))))
                    try await client.execute(uri: "/v1/riders/2/trips", method: .get, headers: rotated) { response in
                        #expect(response.status == .ok)
                        #expect(response.json().tripIDs == ["102", "101", "100"])
                    }
                    #expect(endpoint.requests == 2)
                    // A token of the dropped key that was never seen before now has no key: 401.
                    let stale = API.bearer(
                        try await first.token(Provider.claims(role: .string("rider"), subject: .string("1"))))
                    try await client.execute(uri: "/v1/riders/1/trips", method: .get, headers: stale) { response in
                        #expect(response.status == .unauthorized)
                        #expect(response.json().string("code") == "unauthorized")
                    }
                }
                group.cancelAll()
            }
        }
    }

    @Test func aFetchIsRefusedOnAnErrorStatusARedirectAnOversizedBodyOrATimeout() async throws {
        let router = Router()
        router.get("/missing") { _, _ -> Response in Response(status: .notFound) }
        router.get("/moved") { _, _ -> Response in
            Response(status: .found, headers: [.location: "http://127.0.0.1:1/jwks.json"])
        }
        router.get("/huge") { _, _ -> Response in
            Response(status: .ok, body: .init(byteBuffer: ByteBuffer(repeating: UInt8(ascii: " "), count: 4096)))
        }
        router.get("/stream") { _, _ -> Response in
            // Chunked, with no length announced: the bound applies to what arrives.
            Response(
                status: .ok,
                body: ResponseBody { writer in
                    for _ in 0..<8 { try await writer.write(ByteBuffer(repeating: UInt8(ascii: " "), count: 512)) }
                    try await writer.finish(nil)
                })
        }
        router.get("/slow") { _, _ -> Response in
            try await Task.sleep(for: .seconds(2))
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "{}")))
        }
        router.get("/trickle") { _, _ -> Response in
            Response(
                status: .ok,
                body: ResponseBody { writer in
                    for _ in 0..<30 {
                        try await writer.write(ByteBuffer(string: " "))
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    try await writer.finish(nil)
                })
        }
        router.get("/small") { _, _ -> Response in
            Response(
                status: .ok, headers: [.cacheControl: "max-age=120"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
        }
        let application = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await application.test(.live) { client in
            let port = try #require(client.port)
            func fetcher(_ path: String) throws -> JWKSFetcher {
                JWKSFetcher(url: try #require(URL(string: "http://127.0.0.1:\(port)\(path)")), maximumBytes: 1024)
            }
            let refusals: [(String, JWKSFetcher.Failure)] = [
                ("/missing", .status(404)), ("/moved", .redirected), ("/huge", .tooLarge(limit: 1024)),
                ("/stream", .tooLarge(limit: 1024)),
            ]
            for (path, failure) in refusals {
                await #expect(throws: failure, "\(path)") { _ = try await fetcher(path).fetch() }
            }
            let slow = JWKSFetcher(
                url: try #require(URL(string: "http://127.0.0.1:\(port)/slow")), timeout: .milliseconds(300))
            let started = ContinuousClock.now
            await #expect(throws: JWKSFetcher.Failure.timedOut) { _ = try await slow.fetch() }
            #expect(started.duration(to: .now) < .seconds(2))
            // A server that sends a byte every 100 ms never idles long enough for a transfer timeout: the fetch's
            // own deadline ends it.
            let trickle = JWKSFetcher(
                url: try #require(URL(string: "http://127.0.0.1:\(port)/trickle")), timeout: .milliseconds(500))
            let trickleStarted = ContinuousClock.now
            await #expect(throws: JWKSFetcher.Failure.timedOut) { _ = try await trickle.fetch() }
            #expect(trickleStarted.duration(to: .now) < .seconds(2))
            let small = try await fetcher("/small").fetch()
            #expect(small.body == Array("{}".utf8))
            #expect(small.maxAge == .seconds(120))
        }
    }
}
