import Foundation
import JWTKit

/// The claims of a token from the identity provider: the registered ones this service checks, plus every other
/// top-level claim whose value is a string, an integer or an array of strings, since which claims carry the
/// role and the rider id is configured.
///
/// `verify(using:)` checks nothing: `IdentityProviderTokens` checks the issuer, audience, expiry and not-before
/// right after the signature, against its configuration and its clock, and skips only the expiry when judging
/// an expired token for rate limiting.
struct IdentityProviderClaims: JWTPayload {
    /// A claim value as far as this service reads it.
    enum Value: Equatable, Codable {
        case string(String)
        case integer(Int64)
        case strings([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .string(text)
            } else if let number = try? container.decode(Int64.self) {
                self = .integer(number)
            } else {
                self = .strings(try container.decode([String].self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let text): try container.encode(text)
            case .integer(let number): try container.encode(number)
            case .strings(let texts): try container.encode(texts)
            }
        }
    }

    var issuer: IssuerClaim?
    var audience: AudienceClaim?
    var expiration: ExpirationClaim?
    var notBefore: NotBeforeClaim?
    /// Every other claim this service can read, by name; `sub` among them.
    var claims: [String: Value]

    init(
        issuer: IssuerClaim?, audience: AudienceClaim?, expiration: ExpirationClaim?, notBefore: NotBeforeClaim? = nil,
        claims: [String: Value]
    ) {
        self.issuer = issuer
        self.audience = audience
        self.expiration = expiration
        self.notBefore = notBefore
        self.claims = claims
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }

        static let issuer = Key("iss")
        static let audience = Key("aud")
        static let expiration = Key("exp")
        static let notBefore = Key("nbf")
        static let registered: Set<String> = ["iss", "aud", "exp", "nbf"]
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        issuer = try container.decodeIfPresent(IssuerClaim.self, forKey: .issuer)
        audience = try container.decodeIfPresent(AudienceClaim.self, forKey: .audience)
        expiration = try container.decodeIfPresent(ExpirationClaim.self, forKey: .expiration)
        notBefore = try container.decodeIfPresent(NotBeforeClaim.self, forKey: .notBefore)
        var claims: [String: Value] = [:]
        for key in container.allKeys where !Key.registered.contains(key.stringValue) {
            if let value = try? container.decode(Value.self, forKey: key) { claims[key.stringValue] = value }
        }
        self.claims = claims
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encodeIfPresent(issuer, forKey: .issuer)
        try container.encodeIfPresent(audience, forKey: .audience)
        try container.encodeIfPresent(expiration, forKey: .expiration)
        try container.encodeIfPresent(notBefore, forKey: .notBefore)
        for (name, value) in claims where !Key.registered.contains(name) {
            try container.encode(value, forKey: Key(name))
        }
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
