import Foundation
import JWTKit

/// The claims of this service's bearer tokens.
struct AccessTokenClaims: JWTPayload {
    enum CodingKeys: String, CodingKey {
        case issuer = "iss"
        case audience = "aud"
        case subject = "sub"
        case role
        case expiration = "exp"
    }

    /// Who issued the token: always `AccessTokens.issuer`.
    var issuer: IssuerClaim
    /// Whom the token is for: must include `AccessTokens.audience`.
    var audience: AudienceClaim
    /// The rider id for riders; a free-form name for analysts and services.
    var subject: SubjectClaim
    /// `rider`, `analyst` or `service`.
    var role: String
    var expiration: ExpirationClaim

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try expiration.verifyNotExpired()
        try verifyIssuerAndAudience()
    }

    /// Every check but the expiry.
    func verifyIssuerAndAudience() throws {
        guard issuer.value == AccessTokens.issuer else {
            throw JWTError.claimVerificationFailure(failedClaim: issuer, reason: "not issued by this service")
        }
        try audience.verifyIntendedAudience(includes: AccessTokens.audience)
    }
}

/// The claims of a token of this service checked for everything but its expiry: whose request it was, for
/// charging an expired token's requests to its subject.
struct ExpiredAccessTokenClaims: JWTPayload {
    let claims: AccessTokenClaims

    init(from decoder: any Decoder) throws {
        claims = try AccessTokenClaims(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        try claims.encode(to: encoder)
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try claims.verifyIssuerAndAudience()
    }
}
