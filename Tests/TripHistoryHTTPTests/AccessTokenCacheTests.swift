import Crypto
import Foundation
import Synchronization
import Testing
import TripHistoryDomain

@testable import TripHistoryAPI
@testable import TripHistoryHTTP

@Suite struct AccessTokenCacheTests {
    private static let secret = Array("access-token-cache-secret-of-32-bytes-or-more".utf8)
    private static let otherSecret = Array("another-secret-that-is-also-32-bytes-long".utf8)
    private static let rejected = Problem.unauthorized(
        "The bearer token is malformed, badly signed, expired or not issued for this API.")

    /// A clock the test moves by hand; only the cache reads it, jwt-kit keeps the real one.
    private final class ManualClock: Sendable {
        private let date = Mutex(Date())
        var now: Date { date.withLock { $0 } }
        func set(_ newValue: Date) { date.withLock { $0 = newValue } }
    }

    /// The problem `caller(authorization:)` throws for `token`, or nil if the token is accepted.
    private static func problem(_ tokens: AccessTokens, _ token: String) async -> Problem? {
        do {
            _ = try await tokens.caller(authorization: "Bearer \(token)")
            return nil
        } catch {
            return error
        }
    }

    @Test func aCachedTokenKeepsWorkingForEveryRole() async throws {
        let tokens = await AccessTokens(secret: Self.secret)
        let cases: [(AccessTokens.Role, String, Caller)] = [
            (.rider, "42", .rider(RiderID(42)!)), (.analyst, "ana", .analyst(subject: "ana")),
            (.service, "ingest", .service(subject: "ingest")),
        ]
        for (role, subject, expected) in cases {
            let token = try await tokens.issue(role: role, subject: subject, timeToLive: .seconds(600))
            #expect(tokens.verified.lookup(token[...]) == .miss)
            for _ in 0..<3 {
                #expect(try await tokens.caller(authorization: "Bearer \(token)") == expected)
                #expect(tokens.verified.lookup(token[...]) == .hit(expected))
            }
        }
        #expect(tokens.verified.count == 3)
    }

    @Test func aCachedTokenIsRefusedOnceItExpires() async throws {
        let clock = ManualClock()
        let tokens = await AccessTokens(secret: Self.secret, verified: VerifiedTokenCache(now: { clock.now }))
        // Whole seconds survive the JSON round trip exactly, so the expiry boundary below is exact.
        let issued = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let token = try await tokens.issue(role: .rider, subject: "7", timeToLive: .seconds(60), now: issued)
        #expect(try await tokens.caller(authorization: "Bearer \(token)") == .rider(RiderID(7)!))
        #expect(tokens.verified.count == 1)
        clock.set(issued.addingTimeInterval(59.999))
        #expect(tokens.verified.lookup(token[...]) == .hit(.rider(RiderID(7)!)))

        // jwt-kit still sees the token as valid (real clock), so only the cache's expiry check can refuse it;
        // like jwt-kit, it refuses from the expiry instant on.
        clock.set(issued.addingTimeInterval(60))
        #expect(await Self.problem(tokens, token) == Self.rejected)
        #expect(tokens.verified.count == 0)
    }

    @Test func aTokenExpiredWhenPresentedIsRefusedAndNeverCached() async throws {
        let tokens = await AccessTokens(secret: Self.secret)
        let token = try await tokens.issue(
            role: .rider, subject: "7", timeToLive: .seconds(60), now: Date().addingTimeInterval(-3600)
        )
        for _ in 0..<2 {
            #expect(await Self.problem(tokens, token) == Self.rejected)
        }
        #expect(tokens.verified.count == 0)
    }

    @Test func aForgedTokenIsRefusedBeforeAndAfterTheGenuineOneIsCached() async throws {
        let tokens = await AccessTokens(secret: Self.secret)
        let genuine = try await tokens.issue(role: .analyst, subject: "ana", timeToLive: .seconds(600))
        // The genuine header and claims, byte for byte, signed with another key: only the signature differs.
        let signingInput = genuine.split(separator: ".").prefix(2).joined(separator: ".")
        let otherKey = SymmetricKey(data: Self.otherSecret)
        let forged =
            signingInput + "."
            + Base64URL.encode(Array(HMAC<SHA256>.authenticationCode(for: Array(signingInput.utf8), using: otherKey)))
        #expect(genuine != forged)
        let unsigned = signingInput + "."

        for attempt in [forged, unsigned] {
            #expect(await Self.problem(tokens, attempt) == Self.rejected)
        }
        #expect(tokens.verified.count == 0)
        #expect(try await tokens.caller(authorization: "Bearer \(genuine)") == .analyst(subject: "ana"))
        for attempt in [forged, unsigned] {
            #expect(await Self.problem(tokens, attempt) == Self.rejected)
            #expect(tokens.verified.lookup(attempt[...]) == .miss)
        }
        #expect(tokens.verified.count == 1)
        #expect(try await tokens.caller(authorization: "Bearer \(genuine)") == .analyst(subject: "ana"))
    }

    @Test func aRiderTokenWithABadSubjectKeepsItsOwn401AndIsNotCached() async throws {
        let tokens = await AccessTokens(secret: Self.secret)
        let token = try await tokens.issue(role: .rider, subject: "not-a-rider", timeToLive: .seconds(600))
        for _ in 0..<2 {
            let problem = await Self.problem(tokens, token)
            #expect(problem == .unauthorized("A rider token's subject must be a rider id."))
        }
        #expect(tokens.verified.count == 0)
    }

    @Test(arguments: [1, 7, 16, 100])
    func theCacheNeverHoldsMoreThanItsBound(capacity: Int) {
        let clock = ManualClock()
        let cache = VerifiedTokenCache(capacity: capacity, now: { clock.now })
        let expiry = clock.now.addingTimeInterval(600)
        for index in 0..<(capacity * 10 + 3) {
            cache.insert("token-\(index)", caller: .rider(RiderID(Int64(index + 1))!), expiry: expiry)
            #expect(cache.count <= capacity)
        }
        #expect(cache.count > 0)
        #expect(cache.lookup("token-\(capacity * 10 + 2)") == .hit(.rider(RiderID(Int64(capacity * 10 + 3))!)))

        // Expiry removals and re-insertions leave stale ring slots behind; the bound must still hold.
        var generator = SystemRandomNumberGenerator()
        for round in 0..<(capacity * 20) {
            let token: Substring = "token-\(Int.random(in: 0..<(capacity * 3), using: &generator))"
            if round % 5 == 0 {
                clock.set(expiry)
                _ = cache.lookup(token)
                clock.set(expiry.addingTimeInterval(-600))
            } else {
                cache.insert(token, caller: .analyst(subject: "a"), expiry: expiry)
            }
            #expect(cache.count <= capacity)
        }
    }

    @Test func evictedTokensStillVerify() async throws {
        let tokens = await AccessTokens(secret: Self.secret, verified: VerifiedTokenCache(capacity: 4))
        var issued: [String] = []
        for rider in 1...20 {
            issued.append(try await tokens.issue(role: .rider, subject: String(rider), timeToLive: .seconds(600)))
        }
        for _ in 0..<2 {
            for (offset, token) in issued.enumerated() {
                let expected = Caller.rider(RiderID(Int64(offset + 1))!)
                #expect(try await tokens.caller(authorization: "Bearer \(token)") == expected)
                #expect(tokens.verified.count <= 4)
            }
        }
    }
}
