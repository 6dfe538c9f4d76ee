import Crypto
import Foundation
import HTTPTypes
import JWTKit
import Testing
import TripHistoryDomain

@testable import TripHistoryAPI

/// Tokens name their key, issuer and audience, and only tokens whose key, issuer and audience this service
/// accepts verify.
@Suite struct AccessTokenClaimsTests {
    static let current = Array("claims-test-current-secret-of-32-bytes!".utf8)
    static let previous = Array("claims-test-previous-secret-of-32-bytes".utf8)

    /// A token signed with the token key of `secret` and naming `keyID`, with the given claims.
    static func token(
        secret: [UInt8], keyID: String?, issuer: String = AccessTokens.issuer, audience: String = AccessTokens.audience,
        subject: String = "7", role: String = "rider"
    ) async throws -> String {
        let keys = JWTKeyCollection()
        let derived = SigningSecrets.derivedKey(from: secret, label: "trip-history token key v1")
        await keys.add(hmac: HMACKey(key: SymmetricKey(data: derived)), digestAlgorithm: .sha256)
        let claims = AccessTokenClaims(
            issuer: IssuerClaim(value: issuer), audience: AudienceClaim(value: audience),
            subject: SubjectClaim(value: subject), role: role,
            expiration: ExpirationClaim(value: Date().addingTimeInterval(600)))
        return try await keys.sign(claims, header: keyID.map { ["kid": .string($0)] } ?? JWTHeader())
    }

    static func header(of token: String) throws -> [String: Any] {
        let encoded = try #require(token.split(separator: ".").first)
        let bytes = try #require(Base64URL.decode(encoded))
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    static func payload(of token: String) throws -> [String: Any] {
        let encoded = token.split(separator: ".")[1]
        let bytes = try #require(Base64URL.decode(encoded))
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func issuedTokensCarryTheCurrentKeyIDIssuerAndAudience() async throws {
        let tokens = await AccessTokens(secrets: SigningSecrets(current: Self.current, previous: [Self.previous]))
        let token = try await tokens.issue(role: .rider, subject: "7", timeToLive: .seconds(60))
        let header = try Self.header(of: token)
        #expect(header["kid"] as? String == SigningSecrets.keyID(of: Self.current))
        #expect(header["alg"] as? String == "HS256")
        let payload = try Self.payload(of: token)
        #expect(payload["iss"] as? String == "trip-history")
        #expect(payload["aud"] as? String == "trip-history-api" || payload["aud"] as? [String] == ["trip-history-api"])
        #expect(try await tokens.caller(authorization: "Bearer \(token)") == .rider(RiderID(7)!))
    }

    @Test func keyIDsAreDerivedFromTheSecretAndRevealNothingOfIt() {
        let keyID = SigningSecrets.keyID(of: Self.current)
        #expect(keyID == SigningSecrets.keyID(of: Self.current))
        #expect(keyID != SigningSecrets.keyID(of: Self.previous))
        #expect(keyID.utf8.count == 11)
        #expect(!String(decoding: Self.current, as: UTF8.self).contains(keyID))
    }

    @Test func aTokenOfAPreviousSecretVerifiesAndOneOfADroppedSecretDoesNot() async throws {
        let before = await AccessTokens(secret: Self.previous)
        let token = try await before.issue(role: .rider, subject: "7", timeToLive: .seconds(60))
        let rotated = await AccessTokens(secrets: SigningSecrets(current: Self.current, previous: [Self.previous]))
        #expect(try await rotated.caller(authorization: "Bearer \(token)") == .rider(RiderID(7)!))
        let dropped = await AccessTokens(secret: Self.current)
        await #expect(
            throws: Problem.unauthorized("The bearer token was signed with a key this service no longer accepts.")
        ) {
            _ = try await dropped.caller(authorization: "Bearer \(token)")
        }
    }

    /// Each token is signed with an accepted key, so only the claim or header under test can refuse it.
    @Test func aWrongIssuerOrAudienceOrAnUnknownOrMissingKeyIDIsRefused() async throws {
        let tokens = await AccessTokens(secrets: SigningSecrets(current: Self.current, previous: [Self.previous]))
        let currentKeyID = SigningSecrets.keyID(of: Self.current)
        let genuine = try await Self.token(secret: Self.current, keyID: currentKeyID)
        #expect(try await tokens.caller(authorization: "Bearer \(genuine)") == .rider(RiderID(7)!))
        let refused = [
            try await Self.token(secret: Self.current, keyID: currentKeyID, issuer: "someone-else"),
            try await Self.token(secret: Self.current, keyID: currentKeyID, audience: "another-api"),
            try await Self.token(secret: Self.current, keyID: "unknown-kid"),
            try await Self.token(secret: Self.current, keyID: nil),
            // The previous secret's key under the current key id: the signature does not match the named key.
            try await Self.token(secret: Self.previous, keyID: currentKeyID),
        ]
        for token in refused {
            do {
                _ = try await tokens.caller(authorization: "Bearer \(token)")
                Issue.record("accepted a token it must refuse")
            } catch {
                #expect(error.status == .unauthorized)
                #expect(error.code == .unauthorized)
            }
        }
    }

    /// An erasure records the subject that asked for it in at most 255 bytes: a token naming a longer subject is
    /// refused where it is verified (401), so no request of it can fail later as a write the store refuses.
    @Test func aSubjectLongerThanTheAuditRecordHoldsIsRefusedWhereTheTokenIsVerified() async throws {
        let tokens = await AccessTokens(secrets: SigningSecrets(current: Self.current))
        let keyID = SigningSecrets.keyID(of: Self.current)
        let longest = String(repeating: "é", count: AccessTokens.maximumSubjectBytes / 2)
        let accepted = try await Self.token(secret: Self.current, keyID: keyID, subject: longest, role: "privacy")
        #expect(try await tokens.caller(authorization: "Bearer \(accepted)") == .privacy(subject: longest))
        for role in ["privacy", "analyst", "service"] {
            let long = try await Self.token(
                secret: Self.current, keyID: keyID, subject: longest + "xx", role: role)
            do {
                _ = try await tokens.caller(authorization: "Bearer \(long)")
                Issue.record("accepted a \(role) token with a \(longest.utf8.count + 2)-byte subject")
            } catch {
                #expect(error.status == .unauthorized)
                #expect(error.detail.contains("255 bytes"))
            }
        }
        await #expect(throws: AccessTokens.SubjectError()) {
            try await tokens.issue(role: .privacy, subject: longest + "xx", timeToLive: .seconds(60))
        }
    }
}
