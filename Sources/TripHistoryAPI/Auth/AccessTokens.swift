import Crypto
public import Foundation
import JWTKit
import TripHistoryDomain

/// Issues and verifies the service's HS256 bearer tokens, accepts the identity provider's tokens when one is
/// configured, and turns a verified token into a `Caller`.
public struct AccessTokens: Sendable {
    /// The roles a token can carry.
    public enum Role: String, Sendable, CaseIterable {
        case rider
        case analyst
        case service
        case privacy

        /// The longest lifetime a token of this role may be issued with, so a leaked token stops working
        /// on its own: a week for riders (apps refresh theirs), a day for analysts, 30 days for services
        /// and the privacy role (machine credentials of back-office tools, rotated with the secret).
        public var maximumTimeToLive: Duration {
            switch self {
            case .rider: .seconds(7 * 86_400)
            case .analyst: .seconds(86_400)
            case .service, .privacy: .seconds(30 * 86_400)
            }
        }
    }

    /// The `iss` of every token this service issues, and the only one it accepts.
    public static let issuer = "trip-history"
    /// The `aud` of every token this service issues; a token must name it to be accepted.
    public static let audience = "trip-history-api"

    private let keys: JWTKeyCollection
    /// The key ids of the accepted secrets: a token naming any other `kid`, or none, is refused.
    private let keyIDs: Set<String>
    /// The key id new tokens are signed with, that of the current secret.
    public let currentKeyID: String
    /// Tokens already verified, so a token reused on every request is decoded and checked once.
    let verified: VerifiedTokenCache
    /// The identity provider whose RS256 and ES256 tokens are accepted too; nil accepts only this service's.
    let identityProvider: IdentityProviderTokens?

    /// Signs with `secret` and accepts only it.
    public init(secret: [UInt8]) async {
        await self.init(secrets: SigningSecrets(current: secret))
    }

    /// Signs with the current secret of `secrets` and accepts tokens of any of them, and those of
    /// `identityProvider` when given. Each secret's signing key is derived from it so tokens and cursors never
    /// share a key; its key id (`kid`) is derived too.
    public init(secrets: SigningSecrets, identityProvider: IdentityProviderTokens? = nil) async {
        await self.init(secrets: secrets, verified: VerifiedTokenCache(), identityProvider: identityProvider)
    }

    /// As `init(secret:)`, remembering verified tokens in `verified`.
    init(secret: [UInt8], verified: VerifiedTokenCache) async {
        await self.init(secrets: SigningSecrets(current: secret), verified: verified)
    }

    /// As `init(secrets:identityProvider:)`, remembering verified tokens in `verified`.
    init(secrets: SigningSecrets, verified: VerifiedTokenCache, identityProvider: IdentityProviderTokens? = nil) async {
        self.verified = verified
        self.identityProvider = identityProvider
        keys = JWTKeyCollection()
        var keyIDs: Set<String> = []
        for secret in secrets.all {
            let keyID = SigningSecrets.keyID(of: secret)
            let derived = SigningSecrets.derivedKey(from: secret, label: "trip-history token key v1")
            await keys.add(
                hmac: HMACKey(key: SymmetricKey(data: derived)), digestAlgorithm: .sha256,
                kid: JWKIdentifier(string: keyID))
            keyIDs.insert(keyID)
        }
        // jwt-kit verifies a token whose `kid` it does not know, or that names none, with its default key
        // (the first one added); without one, such a token is refused, so a dropped secret's tokens are too.
        await keys.clearDefault()
        self.keyIDs = keyIDs
        currentKeyID = SigningSecrets.keyID(of: secrets.current)
    }

    /// A token asked to live longer than its role allows (`Role.maximumTimeToLive`), or not at all.
    public struct LifetimeError: Error, Sendable, Equatable {
        public let role: Role
        public let maximum: Duration
    }

    /// The longest subject a token may name, in UTF-8 bytes: an erasure records who asked for it, and the
    /// audit record holds at most this much. A longer one is refused where a token is verified (401), never
    /// met later as a failing write.
    public static let maximumSubjectBytes = 255

    /// A token asked for a subject that is empty or longer than `maximumSubjectBytes`.
    public struct SubjectError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String { "a token's subject must be 1 to \(maximumSubjectBytes) bytes" }
    }

    /// Whether `subject` may name a token's caller.
    static func isAcceptedSubject(_ subject: String) -> Bool {
        !subject.isEmpty && subject.utf8.count <= maximumSubjectBytes
    }

    /// A signed token for `subject` in `role`, expiring after `timeToLive`, which must be positive and at most
    /// the role's `maximumTimeToLive`; `subject` must be 1 to `maximumSubjectBytes` bytes.
    public func issue(role: Role, subject: String, timeToLive: Duration, now: Date = Date()) async throws -> String {
        guard timeToLive > .zero, timeToLive <= role.maximumTimeToLive else {
            throw LifetimeError(role: role, maximum: role.maximumTimeToLive)
        }
        guard Self.isAcceptedSubject(subject) else { throw SubjectError() }
        let seconds = Double(timeToLive.components.seconds)
        let claims = AccessTokenClaims(
            issuer: IssuerClaim(value: Self.issuer), audience: AudienceClaim(value: Self.audience),
            subject: SubjectClaim(value: subject), role: role.rawValue,
            expiration: ExpirationClaim(value: now.addingTimeInterval(seconds))
        )
        return try await keys.sign(claims, kid: JWKIdentifier(string: currentKeyID))
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
        let caller = try await verifyCaller(authorization: authorization)
        RequestSpanAttribute.note(caller)
        return caller
    }

    private func verifyCaller(authorization: String?) async throws(Problem) -> Caller {
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
            // Only a token this service did not sign pays for reading its header: the identity provider's
            // algorithms go there, and a refused token of this service's is told when its key was dropped.
            if let identityProvider, let header = IdentityProviderTokens.Header(token: token),
                IdentityProviderTokens.isIdentityProviderToken(header)
            {
                let verified = try await identityProvider.caller(token: token, header: header)
                self.verified.insert(token, caller: verified.caller, expiry: verified.expiry)
                return verified.caller
            }
            if let keyID = Self.keyID(of: token), !keyIDs.contains(keyID) {
                throw Problem.unauthorized("The bearer token was signed with a key this service no longer accepts.")
            }
            throw Self.rejected
        }
        let caller = try Self.caller(claims: claims)
        verified.insert(token, caller: caller, expiry: claims.expiration.value)
        return caller
    }

    /// How long after its expiry (and the identity provider's leeway) a token is still charged to its subject.
    /// A client whose token just ran out is told so without eating its neighbours' anonymous allowance; an old
    /// expired token, which anyone who found it could send, cannot drain its owner's bucket.
    public static let expiredTokenGrace: Duration = .seconds(60)

    /// The caller of a token this service (or the identity provider) signed that fails only because it expired
    /// within `expiredTokenGrace`; nil for any other `Authorization`. Such a token still proves whose request it
    /// is, so rate limits charge it to its subject rather than to the client's address (behind a proxy, every
    /// client's). Checks the signature again, which only requests already refused with a 401 pay.
    func expiredCaller(authorization: String?, now: Date = Date()) async -> Caller? {
        guard let token = Self.bearerToken(authorization) else { return nil }
        if let expired = try? await keys.verify(String(token), as: ExpiredAccessTokenClaims.self) {
            let graceEnd = expired.claims.expiration.value.addingTimeInterval(Self.expiredTokenGrace.timeInterval)
            guard now < graceEnd else { return nil }
            return try? Self.caller(claims: expired.claims)
        }
        guard let identityProvider, let header = IdentityProviderTokens.Header(token: token),
            IdentityProviderTokens.isIdentityProviderToken(header)
        else { return nil }
        return await identityProvider.expiredCaller(token: token, header: header, grace: Self.expiredTokenGrace)
    }

    /// The 401 for a token whose subject is empty or too long.
    static var subjectRefused: Problem {
        Problem.unauthorized("The bearer token's subject (sub) must be 1 to \(maximumSubjectBytes) bytes.")
    }

    /// The 401 for a token that does not verify, also when a cached token has expired since.
    private static var rejected: Problem {
        Problem.unauthorized("The bearer token is malformed, badly signed, expired or not issued for this API.")
    }

    /// The `kid` of a token's header, unverified; nil if the token is malformed or names none.
    private static func keyID(of token: Substring) -> String? {
        guard let header = try? DefaultJWTParser().parse(Array(token.utf8), as: AccessTokenClaims.self).header else {
            return nil
        }
        return header.kid
    }

    /// The token of `Bearer <token>` (scheme case-insensitive), at most 4096 bytes.
    private static func bearerToken(_ authorization: String?) -> Substring? {
        guard let authorization else { return nil }
        // The usual form, `Bearer <token>` with one space, without the general split below.
        if authorization.utf8.starts(with: "Bearer ".utf8) {
            let token = authorization.dropFirst(7)
            if !token.isEmpty, token.utf8.count <= 4096, !Self.containsSpace(token) { return token }
        }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer", parts[1].utf8.count <= 4096 else { return nil }
        return parts[1]
    }

    /// Whether `text` has a space, found with `memchr` in its bytes when they are contiguous (they are for
    /// a header value), since a generic search of a substring's bytes is slow and this runs on every request.
    private static func containsSpace(_ text: Substring) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, Int32(UInt8(ascii: " ")), bytes.count) != nil
        } ?? text.utf8.contains(UInt8(ascii: " "))
    }

    /// The caller named by verified claims, or the 401 for a subject or role this service does not accept.
    private static func caller(claims: AccessTokenClaims) throws(Problem) -> Caller {
        guard isAcceptedSubject(claims.subject.value) else { throw subjectRefused }
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
        case .privacy:
            return .privacy(subject: claims.subject.value)
        case nil:
            throw Problem.unauthorized("The bearer token has an unknown role.")
        }
    }
}
