import Foundation
import HTTPTypes
import Logging
import Synchronization
import Testing
import TripHistoryDomain
import TripHistoryTestSupport

@testable import TripHistoryAPI

/// Tokens of the company's identity provider (RS256 and ES256, keys from its JWKS) accepted beside the
/// service's own HS256 tokens, with every forgery refused and the JWKS fetched within its bounds.
@Suite struct IdentityProviderTokenTests {
    typealias Provider = TestIdentityProvider
    static let secret = Array("identity-provider-test-secret-32-bytes!!".utf8)

    /// A JWKS endpoint in memory: serves `document` (or fails when nil) and counts the fetches.
    final class Endpoint: Sendable {
        private struct State {
            var document: [UInt8]?
            var maxAge: Duration?
            var fetches = 0
        }
        private let state: Mutex<State>

        init(document: [UInt8]?, maxAge: Duration? = nil) {
            state = Mutex(State(document: document, maxAge: maxAge))
        }

        var fetches: Int { state.withLock { $0.fetches } }

        func serve(_ document: [UInt8]?, maxAge: Duration? = nil) {
            state.withLock {
                $0.document = document
                $0.maxAge = maxAge
            }
        }

        func fetch() throws -> JWKSKeySource.Document {
            try state.withLock { state in
                state.fetches += 1
                guard let document = state.document else { throw Unreachable() }
                return JWKSKeySource.Document(body: document, maxAge: state.maxAge)
            }
        }

        struct Unreachable: Error {}
    }

    /// A monotonic clock the test moves by hand.
    final class TestClock: Sendable {
        private let start = ContinuousClock.now
        private let offset = Mutex(Duration.zero)

        var now: ContinuousClock.Instant { start + offset.withLock { $0 } }

        func advance(by duration: Duration) { offset.withLock { $0 += duration } }
    }

    struct Setup {
        let tokens: AccessTokens
        let keys: JWKSKeySource
        let endpoint: Endpoint
        let clock: TestClock
    }

    /// `AccessTokens` accepting the provider's tokens, with the JWKS fetched once (as `serve` does at start)
    /// unless `initialFetch` is false.
    static func setup(
        serving document: [UInt8]?,
        configuration: IdentityProviderTokens.Configuration = .init(
            issuer: Provider.issuer, audience: Provider.audience),
        initialFetch: Bool = true
    ) async -> Setup {
        let endpoint = Endpoint(document: document)
        let clock = TestClock()
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let keys = JWKSKeySource(logger: logger, now: { clock.now }, fetch: { try endpoint.fetch() })
        if initialFetch { await keys.refresh() }
        let tokens = await AccessTokens(
            secrets: SigningSecrets(current: secret),
            identityProvider: IdentityProviderTokens(configuration: configuration, keys: keys))
        return Setup(tokens: tokens, keys: keys, endpoint: endpoint, clock: clock)
    }

    static func problem(_ tokens: AccessTokens, _ token: String) async -> Problem? {
        do {
            _ = try await tokens.caller(authorization: "Bearer \(token)")
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Accepted

    @Test(arguments: ["RS256", "ES256"])
    func aTokenOfEitherAlgorithmIsAcceptedWithItsRole(algorithm: String) async throws {
        let key =
            algorithm == "RS256" ? try await Provider.rsaKey(kid: "rsa-1") : try await Provider.ecKey(kid: "ec-1")
        let setup = await Self.setup(serving: Provider.jwks([key]))
        let cases: [([String: Provider.ClaimValue], Caller)] = [
            (Provider.claims(role: .string("rider"), subject: .string("42")), .rider(RiderID(42)!)),
            (Provider.claims(role: .string("analyst"), subject: .string("alice")), .analyst(subject: "alice")),
            (Provider.claims(role: .string("service"), subject: .string("ingest")), .service(subject: "ingest")),
            // An array of roles counts when exactly one of them is known here.
            (
                Provider.claims(role: .strings(["offline_access", "analyst"]), subject: .string("bob")),
                .analyst(subject: "bob")
            ),
        ]
        for (claims, expected) in cases {
            let token = try await key.token(claims)
            #expect(try await setup.tokens.caller(authorization: "Bearer \(token)") == expected)
            // Verified once, then served from the cache like the service's own tokens.
            #expect(setup.tokens.verifiedCaller(authorization: "Bearer \(token)") == expected)
        }
        #expect(setup.endpoint.fetches == 1)
    }

    @Test func theRoleAndRiderClaimsAreConfigurableAndARiderIDMayBeAnInteger() async throws {
        let key = try await Provider.rsaKey(kid: "rsa-1")
        let setup = await Self.setup(
            serving: Provider.jwks([key]),
            configuration: .init(
                issuer: Provider.issuer, audience: Provider.audience, roleClaim: "trip_role", riderClaim: "rider_id"))
        let token = try await key.token(
            Provider.claims(
                role: nil, subject: .string("auth0|abc"),
                extra: ["trip_role": .string("rider"), "rider_id": .integer(7)]))
        #expect(try await setup.tokens.caller(authorization: "Bearer \(token)") == .rider(RiderID(7)!))
    }

    @Test func theServicesOwnTokensKeepWorkingBesideTheProviders() async throws {
        let key = try await Provider.rsaKey(kid: "rsa-1")
        let setup = await Self.setup(serving: Provider.jwks([key]))
        let own = try await setup.tokens.issue(role: .rider, subject: "9", timeToLive: .seconds(60))
        let providers = try await key.token(Provider.claims(role: .string("rider"), subject: .string("42")))
        #expect(try await setup.tokens.caller(authorization: "Bearer \(own)") == .rider(RiderID(9)!))
        #expect(try await setup.tokens.caller(authorization: "Bearer \(providers)") == .rider(RiderID(42)!))
    }

    // MARK: - Refused

    /// A token that must be refused, and how it is made from the provider's RSA key and ECDSA key.
    struct Forgery: CustomTestStringConvertible, Sendable {
        let testDescription: String
        let make: @Sendable (Provider.SigningKey, Provider.SigningKey) async throws -> String
    }

    static let forgeries: [Forgery] = [
        Forgery(testDescription: "wrong issuer") { rsa, _ in
            try await rsa.token(
                Provider.claims(
                    role: .string("rider"), subject: .string("42"), extra: ["iss": .string("https://evil.test/")]))
        },
        Forgery(testDescription: "wrong audience") { rsa, _ in
            try await rsa.token(
                Provider.claims(role: .string("rider"), subject: .string("42"), extra: ["aud": .string("other-api")]))
        },
        Forgery(testDescription: "expired beyond the leeway") { rsa, _ in
            try await rsa.token(Provider.claims(role: .string("rider"), subject: .string("42"), expiresIn: -120))
        },
        Forgery(testDescription: "no expiry") { rsa, _ in
            var claims = Provider.claims(role: .string("rider"), subject: .string("42"))
            claims["exp"] = nil
            return try await rsa.token(claims)
        },
        Forgery(testDescription: "not valid before a time beyond the leeway") { rsa, _ in
            try await rsa.token(
                Provider.claims(
                    role: .string("rider"), subject: .string("42"),
                    extra: ["nbf": .number(Date().addingTimeInterval(300).timeIntervalSince1970)]))
        },
        Forgery(testDescription: "HS256 with the RSA public key as secret") { rsa, _ in
            try Provider.handMadeToken(
                header: ["alg": "HS256", "typ": "JWT", "kid": rsa.kid],
                claims: Provider.claims(role: .string("analyst"), subject: .string("mallory")),
                secret: Array(rsa.publicKeyPEM.utf8))
        },
        Forgery(testDescription: "alg none") { rsa, _ in
            try Provider.handMadeToken(
                header: ["alg": "none", "typ": "JWT", "kid": rsa.kid],
                claims: Provider.claims(role: .string("analyst"), subject: .string("mallory")), secret: nil)
        },
        Forgery(testDescription: "ES256 header naming the RSA key") { rsa, ec in
            // Signed by the EC key, its header rewritten to name the RSA key's kid.
            let token = try await ec.token(Provider.claims(role: .string("analyst"), subject: .string("mallory")))
            let parts = token.split(separator: ".")
            let header = try Provider.handMadeToken(
                header: ["alg": "ES256", "typ": "JWT", "kid": rsa.kid], claims: [:], secret: nil
            ).split(separator: ".")[0]
            return "\(header).\(parts[1]).\(parts[2])"
        },
        Forgery(testDescription: "a critical header extension") { rsa, _ in
            let token = try await rsa.token(Provider.claims(role: .string("rider"), subject: .string("42")))
            let header = Data(#"{"alg":"RS256","crit":["exp"],"exp":1,"kid":"rsa-1"}"#.utf8).base64EncodedString()
                .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_")
            return header + token.drop(while: { $0 != "." })
        },
        Forgery(testDescription: "unknown kid") { _, _ in
            let stranger = try await Provider.rsaKey(kid: "not-published")
            return try await stranger.token(Provider.claims(role: .string("rider"), subject: .string("42")))
        },
        Forgery(testDescription: "rider role without a rider id") { rsa, _ in
            try await rsa.token(Provider.claims(role: .string("rider"), subject: .string("auth0|abc")))
        },
        Forgery(testDescription: "unknown role") { rsa, _ in
            try await rsa.token(Provider.claims(role: .string("admin"), subject: .string("42")))
        },
        Forgery(testDescription: "two known roles") { rsa, _ in
            try await rsa.token(Provider.claims(role: .strings(["rider", "analyst"]), subject: .string("42")))
        },
        Forgery(testDescription: "a tampered payload") { rsa, _ in
            let token = try await rsa.token(Provider.claims(role: .string("rider"), subject: .string("42")))
            let other = try await rsa.token(Provider.claims(role: .string("analyst"), subject: .string("42")))
            let parts = token.split(separator: ".")
            let otherParts = other.split(separator: ".")
            return "\(parts[0]).\(otherParts[1]).\(parts[2])"
        },
    ]

    @Test(arguments: forgeries)
    func aForgedOrUnfitTokenIsA401ThatDoesNotEchoIt(forgery: Forgery) async throws {
        let rsa = try await Provider.rsaKey(kid: "rsa-1")
        let ec = try await Provider.ecKey(kid: "ec-1")
        let setup = await Self.setup(serving: Provider.jwks([rsa, ec]))
        let token = try await forgery.make(rsa, ec)
        let problem = try #require(await Self.problem(setup.tokens, token))
        #expect(problem.status == .unauthorized)
        #expect(problem.code == .unauthorized)
        for part in token.split(separator: ".") { #expect(!problem.detail.contains(part)) }
    }

    // MARK: - Fetching

    @Test func anUnknownKidFetchesOnceAndIsAcceptedWhenTheNewDocumentHasIt() async throws {
        let old = try await Provider.rsaKey(kid: "old")
        let new = try await Provider.ecKey(kid: "new")
        let setup = await Self.setup(serving: Provider.jwks([old]))
        #expect(setup.endpoint.fetches == 1)
        setup.endpoint.serve(Provider.jwks([old, new]))
        let token = try await new.token(Provider.claims(role: .string("analyst"), subject: .string("alice")))
        #expect(try await setup.tokens.caller(authorization: "Bearer \(token)") == .analyst(subject: "alice"))
        #expect(setup.endpoint.fetches == 2)
        // Now known: no further fetch for it.
        let another = try await new.token(Provider.claims(role: .string("analyst"), subject: .string("carol")))
        #expect(try await setup.tokens.caller(authorization: "Bearer \(another)") == .analyst(subject: "carol"))
        #expect(setup.endpoint.fetches == 2)
    }

    @Test func aFloodOfUnknownKidsFetchesAtMostOncePerInterval() async throws {
        let key = try await Provider.rsaKey(kid: "rsa-1")
        let setup = await Self.setup(serving: Provider.jwks([key]))
        let claims = Provider.claims(role: .string("rider"), subject: .string("42"))
        func flood() async throws {
            let tokens = try (0..<200).map { index in
                try Provider.handMadeToken(
                    header: ["alg": "RS256", "kid": "random-\(index)-\(UInt64.random(in: 0...UInt64.max))"],
                    claims: claims, secret: Array("x".utf8))
            }
            try await withThrowingTaskGroup(of: Problem?.self) { group in
                for token in tokens { group.addTask { await Self.problem(setup.tokens, token) } }
                for try await problem in group { #expect(problem?.status == .unauthorized) }
            }
        }
        try await flood()
        #expect(setup.endpoint.fetches == 2)
        setup.clock.advance(by: .seconds(10))
        try await flood()
        #expect(setup.endpoint.fetches == 2)
        setup.clock.advance(by: .seconds(21))
        try await flood()
        #expect(setup.endpoint.fetches == 3)
    }

    @Test func withoutAnyKeysTheProvidersTokensGet503UntilAFetchSucceeds() async throws {
        let key = try await Provider.rsaKey(kid: "rsa-1")
        let setup = await Self.setup(serving: nil)
        #expect(await setup.keys.hasKeys == false)
        let token = try await key.token(Provider.claims(role: .string("rider"), subject: .string("42")))
        let problem = try #require(await Self.problem(setup.tokens, token))
        #expect(problem.status == .serviceUnavailable)
        #expect(problem.code == .unavailable)
        #expect((1...30).contains(problem.retryAfterSeconds ?? 0))
        // The service's own tokens do not depend on the identity provider.
        let own = try await setup.tokens.issue(role: .analyst, subject: "ops", timeToLive: .seconds(60))
        #expect(try await setup.tokens.caller(authorization: "Bearer \(own)") == .analyst(subject: "ops"))

        setup.endpoint.serve(Provider.jwks([key]))
        // Within the interval no further fetch is made for a token, so it is still a 503.
        #expect(await Self.problem(setup.tokens, token)?.status == .serviceUnavailable)
        setup.clock.advance(by: .seconds(31))
        #expect(try await setup.tokens.caller(authorization: "Bearer \(token)") == .rider(RiderID(42)!))
    }

    @Test func aFailedOrRefusedFetchKeepsTheKeysHeld() async throws {
        let key = try await Provider.rsaKey(kid: "rsa-1")
        let setup = await Self.setup(serving: Provider.jwks([key]))
        setup.endpoint.serve(nil)
        #expect(await setup.keys.refresh() == .seconds(30))
        setup.endpoint.serve(Array(#"{"keys":[{"kty":"oct","kid":"hmac","k":"c2VjcmV0"}]}"#.utf8))
        #expect(await setup.keys.refresh() == .seconds(30))
        let token = try await key.token(Provider.claims(role: .string("rider"), subject: .string("42")))
        #expect(try await setup.tokens.caller(authorization: "Bearer \(token)") == .rider(RiderID(42)!))
    }

    @Test func theKeysAreKeptForTheirMaxAgeWithinBounds() async throws {
        let key = try await Provider.rsaKey(kid: "rsa-1")
        let setup = await Self.setup(serving: Provider.jwks([key]), initialFetch: false)
        let cases: [(Duration?, Duration)] = [
            (nil, .seconds(3600)), (.seconds(600), .seconds(600)), (.seconds(5), .seconds(60)),
            (.seconds(30 * 86_400), .seconds(86_400)),
        ]
        for (maxAge, kept) in cases {
            setup.endpoint.serve(Provider.jwks([key]), maxAge: maxAge)
            #expect(await setup.keys.refresh() == kept)
        }
    }

    @Test func maxAgeIsReadFromCacheControl() {
        #expect(JWKSKeySource.maxAge(cacheControl: "public, max-age=120, must-revalidate") == .seconds(120))
        #expect(JWKSKeySource.maxAge(cacheControl: "Max-Age = \"90\"") == .seconds(90))
        #expect(JWKSKeySource.maxAge(cacheControl: "no-cache") == nil)
        #expect(JWKSKeySource.maxAge(cacheControl: "max-age=-5") == nil)
        #expect(JWKSKeySource.maxAge(cacheControl: "s-maxage=10") == nil)
    }

    @Test func onlyRS256AndES256SigningKeysAreKept() async throws {
        let rsa = try await Provider.rsaKey(kid: "rsa-1")
        let ec = try await Provider.ecKey(kid: "ec-1")
        var encryption = rsa.jwk
        encryption["kid"] = "enc"
        encryption["use"] = "enc"
        var rs512 = rsa.jwk
        rs512["kid"] = "rs512"
        rs512["alg"] = "RS512"
        var hmacClaimingRS256 = ["kty": "oct", "kid": "oct", "alg": "RS256", "k": "c2VjcmV0"]
        hmacClaimingRS256["use"] = "sig"
        var p384 = ec.jwk
        p384["kid"] = "p384"
        p384["crv"] = "P-384"
        var duplicate = ec.jwk
        duplicate["kid"] = "rsa-1"
        var noKid = rsa.jwk
        noKid["kid"] = nil
        let document = Provider.jwks([rsa, ec], extra: [encryption, rs512, hmacClaimingRS256, p384, duplicate, noKid])
        let keys = try await IdentityProviderKeySet(document: document, maximumKeys: 100)
        #expect(keys.algorithms == ["rsa-1": .rs256, "ec-1": .es256])

        await #expect(throws: IdentityProviderKeySet.Failure.tooManyKeys(limit: 3)) {
            _ = try await IdentityProviderKeySet(document: Provider.jwks([rsa, ec, rsa, ec]), maximumKeys: 3)
        }
        await #expect(throws: IdentityProviderKeySet.Failure.malformed) {
            _ = try await IdentityProviderKeySet(document: Array("<html>".utf8), maximumKeys: 3)
        }
        await #expect(throws: IdentityProviderKeySet.Failure.noUsableKey) {
            _ = try await IdentityProviderKeySet(document: Provider.jwks([], extra: [encryption]), maximumKeys: 3)
        }
    }

    // MARK: - Expired tokens and rate limits

    /// Past the leeway the provider's token is refused, and for another minute it is still charged to its
    /// subject; a token expired longer ago, or one the provider did not sign, is no one's.
    @Test func aJustExpiredTokenOfTheProviderIsChargedToItsSubjectAndAnOldOneToNoOne() async throws {
        let key = try await Provider.ecKey(kid: "ec-1")
        let stranger = try await Provider.ecKey(kid: "ec-1")
        let setup = await Self.setup(serving: Provider.jwks([key]))
        let expired = try await key.token(
            Provider.claims(role: .string("rider"), subject: .string("42"), expiresIn: -90))
        #expect(await Self.problem(setup.tokens, expired)?.status == .unauthorized)
        #expect(await setup.tokens.expiredCaller(authorization: "Bearer \(expired)") == .rider(RiderID(42)!))
        let old = try await key.token(
            Provider.claims(role: .string("rider"), subject: .string("42"), expiresIn: -3600))
        #expect(await setup.tokens.expiredCaller(authorization: "Bearer \(old)") == nil)
        let forged = try await stranger.token(
            Provider.claims(role: .string("rider"), subject: .string("42"), expiresIn: -90))
        #expect(await setup.tokens.expiredCaller(authorization: "Bearer \(forged)") == nil)
    }
}
