import Crypto
public import Foundation
import JWTKit
import TripHistoryDomain

/// Issues and verifies the service's HS256 bearer tokens, and turns a verified token into a `Caller`.
public struct AccessTokens: Sendable {
    /// The roles a token can carry.
    public enum Role: String, Sendable, CaseIterable {
        case rider
        case analyst
        case service

        /// The longest lifetime a token of this role may be issued with, so a leaked token stops working
        /// on its own: a week for riders (apps refresh theirs), a day for analysts, 30 days for services
        /// (machine credentials, rotated with the secret).
        public var maximumTimeToLive: Duration {
            switch self {
            case .rider: .seconds(7 * 86_400)
            case .analyst: .seconds(86_400)
            case .service: .seconds(30 * 86_400)
            }
        }
    }

    private let keys: JWTKeyCollection
    /// Tokens already verified, so a token reused on every request is decoded and checked once.
    let verified: VerifiedTokenCache

    /// `secret` is the service secret; the signing key is derived from it so tokens and cursors never share a key.
    public init(secret: [UInt8]) async {
        await self.init(secret: secret, verified: VerifiedTokenCache())
    }

    /// As `init(secret:)`, remembering verified tokens in `verified`.
    init(secret: [UInt8], verified: VerifiedTokenCache) async {
        self.verified = verified
        let derived = HMAC<SHA256>.authenticationCode(
            for: Array("trip-history token key v1".utf8), using: SymmetricKey(data: secret)
        )
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(key: SymmetricKey(data: Array(derived))), digestAlgorithm: .sha256)
    }

    /// A token asked to live longer than its role allows (`Role.maximumTimeToLive`), or not at all.
    public struct LifetimeError: Error, Sendable, Equatable {
        public let role: Role
        public let maximum: Duration
    }

    /// A signed token for `subject` in `role`, expiring after `timeToLive`, which must be positive and at most
    /// the role's `maximumTimeToLive`.
    public func issue(role: Role, subject: String, timeToLive: Duration, now: Date = Date()) async throws -> String {
        guard timeToLive > .zero, timeToLive <= role.maximumTimeToLive else {
            throw LifetimeError(role: role, maximum: role.maximumTimeToLive)
        }
        let seconds = Double(timeToLive.components.seconds)
        let claims = AccessTokenClaims(
            subject: SubjectClaim(value: subject), role: role.rawValue,
            expiration: ExpirationClaim(value: now.addingTimeInterval(seconds))
        )
        return try await keys.sign(claims)
    }

    /// The caller of a well-formed bearer token that was verified before and has not expired; nil for
    /// anything else (no header, malformed, never verified, expired), which `caller(authorization:)` then
    /// judges. Never waits, so a channel handler may call it on the event loop.
    func verifiedCaller(authorization: String?) -> Caller? {
        guard let token = Self.bearerToken(authorization), case .hit(let caller) = verified.lookup(token) else {
            return nil
        }
        return caller
    }

    /// The caller proven by an `Authorization` header value. Every failure is a 401 that says what to fix
    /// without echoing the token.
    func caller(authorization: String?) async throws(Problem) -> Caller {
        guard let authorization else {
            throw Problem.unauthorized("Send an Authorization header with a Bearer token.")
        }
        guard let token = Self.bearerToken(authorization) else {
            throw Problem.unauthorized("The Authorization header must be 'Bearer <token>'.")
        }
        switch verified.lookup(token) {
        case .hit(let caller): return caller
        case .expired: throw Self.rejected
        case .miss: break
        }
        let claims: AccessTokenClaims
        do {
            claims = try await keys.verify(String(token), as: AccessTokenClaims.self)
        } catch {
            throw Self.rejected
        }
        let caller = try Self.caller(claims: claims)
        verified.insert(token, caller: caller, expiry: claims.expiration.value)
        return caller
    }

    /// The 401 for a token that does not verify, also when a cached token has expired since.
    private static var rejected: Problem {
        Problem.unauthorized("The bearer token is malformed, badly signed or expired.")
    }

    /// The token of `Bearer <token>` (scheme case-insensitive), at most 4096 bytes.
    private static func bearerToken(_ authorization: String?) -> Substring? {
        guard let authorization else { return nil }
        // The usual form, `Bearer <token>` with one space, without the general split below.
        if authorization.utf8.starts(with: "Bearer ".utf8) {
            let token = authorization.dropFirst(7)
            if !token.isEmpty, token.utf8.count <= 4096, !token.utf8.contains(UInt8(ascii: " ")) { return token }
        }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer", parts[1].utf8.count <= 4096 else { return nil }
        return parts[1]
    }

    /// The caller named by verified claims, or the 401 for a subject or role this service does not accept.
    private static func caller(claims: AccessTokenClaims) throws(Problem) -> Caller {
        switch Role(rawValue: claims.role) {
        case .rider:
            guard let riderID = RiderID(claims.subject.value) else {
                throw Problem.unauthorized("A rider token's subject must be a rider id.")
            }
            return .rider(riderID)
        case .analyst:
            return .analyst(subject: claims.subject.value)
        case .service:
            return .service(subject: claims.subject.value)
        case nil:
            throw Problem.unauthorized("The bearer token has an unknown role.")
        }
    }
}
