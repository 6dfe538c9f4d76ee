import Foundation
import JWTKit

/// The claims of this service's bearer tokens.
struct AccessTokenClaims: JWTPayload {
    enum CodingKeys: String, CodingKey {
        case subject = "sub"
        case role
        case expiration = "exp"
    }

    /// The rider id for riders; a free-form name for analysts and services.
    var subject: SubjectClaim
    /// `rider`, `analyst` or `service`.
    var role: String
    var expiration: ExpirationClaim

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try expiration.verifyNotExpired()
    }
}
