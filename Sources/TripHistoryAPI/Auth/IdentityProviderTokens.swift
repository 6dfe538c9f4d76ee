public import Foundation
import JWTKit
import TripHistoryDomain

/// Verifies bearer tokens of the company's identity provider (RS256 or ES256, keys from its JWKS) and turns
/// one into a `Caller`.
///
/// A token is accepted only if its header names RS256 or ES256, the same algorithm as the key its `kid`
/// names, and no critical extension; its signature verifies; `iss` is the configured issuer; `aud` includes the
/// configured audience; `exp` is present and, like `nbf` when present, holds within `leeway`; and its role
/// claim names exactly one role this service knows (a rider's also a rider id). Every refusal is a 401 that
/// never echoes the token, but a token that cannot be checked because no keys were ever fetched is a 503.
public struct IdentityProviderTokens: Sendable {
    /// What a token of the identity provider must say, and where.
    public struct Configuration: Sendable, Equatable {
        /// The only accepted `iss`.
        public var issuer: String
        /// A value `aud` must include.
        public var audience: String
        /// The claim naming the role: a string, or an array of strings of which exactly one is a known role.
        public var roleClaim: String
        /// The claim holding a rider token's rider id, a string or an integer.
        public var riderClaim: String
        /// How far past `exp` (and before `nbf`) a token is still accepted, for clocks that disagree.
        public var leeway: Duration

        public init(
            issuer: String, audience: String, roleClaim: String = "role", riderClaim: String = "sub",
            leeway: Duration = .seconds(60)
        ) {
            self.issuer = issuer
            self.audience = audience
            self.roleClaim = roleClaim
            self.riderClaim = riderClaim
            self.leeway = leeway
        }
    }

    public let configuration: Configuration
    /// Where the signing keys come from.
    public let keys: JWKSKeySource
    private let now: @Sendable () -> Date

    /// Verifies against `configuration` with the keys of `keys`, judging time by `now`.
    public init(
        configuration: Configuration, keys: JWKSKeySource, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.keys = keys
        self.now = now
    }

    /// Whether a token's header names an algorithm of the identity provider, so it is judged here rather than
    /// as one of the service's own tokens.
    static func isIdentityProviderToken(_ header: Header) -> Bool {
        IdentityProviderKeySet.Algorithm(rawValue: header.alg) != nil
    }

    /// The caller of `token`, whose header is `header`, and when its verification stops holding.
    func caller(token: Substring, header: Header) async throws(Problem) -> (caller: Caller, expiry: Date) {
        let claims = try await verifiedClaims(token: token, header: header)
        let current = now()
        guard let expiration = claims.expiration?.value else {
            throw Problem.unauthorized("The identity provider's token has no expiry (exp).")
        }
        let expiry = expiration.addingTimeInterval(configuration.leeway.timeInterval)
        guard current < expiry else { throw Self.rejected }
        try check(claims, at: current)
        return (try caller(claims: claims), expiry)
    }

    /// The caller of a token that fails only because it expired, less than `grace` past its expiry and the
    /// leeway; nil for any other. See `AccessTokens.expiredCaller(authorization:)`.
    func expiredCaller(token: Substring, header: Header, grace: Duration) async -> Caller? {
        let current = now()
        guard let claims = try? await verifiedClaims(token: token, header: header),
            let expiration = claims.expiration?.value,
            current < expiration.addingTimeInterval(configuration.leeway.timeInterval + grace.timeInterval),
            (try? check(claims, at: current)) != nil
        else { return nil }
        return try? caller(claims: claims)
    }

    /// The claims of a token whose header and signature check out; the claims themselves are not checked yet.
    private func verifiedClaims(token: Substring, header: Header) async throws(Problem) -> IdentityProviderClaims {
        guard let algorithm = IdentityProviderKeySet.Algorithm(rawValue: header.alg), header.crit == nil else {
            throw Self.rejected
        }
        guard let kid = header.kid else {
            throw Problem.unauthorized("The identity provider's token names no key (kid).")
        }
        let entry: IdentityProviderKeySet.Entry
        switch await keys.key(for: kid) {
        case .key(let found): entry = found
        case .unknownKey:
            throw Problem.unauthorized("The bearer token was signed with a key the identity provider does not publish.")
        case .unavailable(let seconds): throw Problem.identityProviderUnavailable(retryAfterSeconds: seconds)
        }
        // The key decides the algorithm: a token may not have an RSA key checked as ECDSA or the reverse.
        guard entry.algorithm == algorithm else { throw Self.rejected }
        do {
            return try await entry.keys.verify(String(token), as: IdentityProviderClaims.self)
        } catch {
            throw Self.rejected
        }
    }

    /// Checks every claim but the expiry and the role.
    private func check(_ claims: IdentityProviderClaims, at current: Date) throws(Problem) {
        guard claims.issuer?.value == configuration.issuer,
            claims.audience?.value.contains(configuration.audience) == true
        else { throw Self.rejected }
        if let notBefore = claims.notBefore?.value,
            current < notBefore.addingTimeInterval(-configuration.leeway.timeInterval)
        {
            throw Self.rejected
        }
    }

    /// The caller named by checked claims, or the 401 for a role or rider id this service does not accept.
    private func caller(claims: IdentityProviderClaims) throws(Problem) -> Caller {
        let role: AccessTokens.Role
        switch claims.claims[configuration.roleClaim] {
        case .string(let name)?:
            guard let known = AccessTokens.Role(rawValue: name) else {
                throw Problem.unauthorized("The bearer token has an unknown role.")
            }
            role = known
        case .strings(let names)?:
            let known = Set(names.compactMap(AccessTokens.Role.init(rawValue:)))
            guard known.count == 1, let only = known.first else {
                throw Problem.unauthorized(
                    known.isEmpty
                        ? "The bearer token has an unknown role." : "The bearer token names more than one role.")
            }
            role = only
        case .integer?, nil:
            throw Problem.unauthorized("The bearer token has an unknown role.")
        }
        switch role {
        case .rider:
            let riderID: RiderID?
            switch claims.claims[configuration.riderClaim] {
            case .string(let text)?: riderID = RiderID(text)
            case .integer(let number)?: riderID = RiderID(number)
            case .strings?, nil: riderID = nil
            }
            guard let riderID else { throw Problem.unauthorized("A rider token must carry a rider id.") }
            return .rider(riderID)
        case .analyst, .service, .privacy:
            guard case .string(let subject)? = claims.claims["sub"], !subject.isEmpty else {
                throw Problem.unauthorized("An analyst, service or privacy token must have a subject (sub).")
            }
            guard AccessTokens.isAcceptedSubject(subject) else { throw AccessTokens.subjectRefused }
            switch role {
            case .analyst: return .analyst(subject: subject)
            case .privacy: return .privacy(subject: subject)
            case .rider, .service: return .service(subject: subject)
            }
        }
    }

    /// The same 401 as for the service's own tokens, so a refusal tells nothing about which check failed.
    private static var rejected: Problem {
        Problem.unauthorized("The bearer token is malformed, badly signed, expired or not issued for this API.")
    }

    /// The fields of a JWT header this service reads, unverified.
    struct Header: Decodable, Equatable {
        var alg: String
        var kid: String?
        /// Critical extensions (RFC 7515 §4.1.11); this service understands none, so any refuses the token.
        var crit: [String]?

        /// The header of `token`; nil when it is not a JWT header.
        init?(token: Substring) {
            guard let dot = token.firstIndex(of: "."), let bytes = Base64URL.decode(token[..<dot]),
                let header = try? JSONDecoder().decode(Header.self, from: Data(bytes))
            else { return nil }
            self = header
        }

        init(alg: String, kid: String?, crit: [String]? = nil) {
            self.alg = alg
            self.kid = kid
            self.crit = crit
        }
    }
}
