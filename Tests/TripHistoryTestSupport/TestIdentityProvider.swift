import Crypto
import CryptoExtras
public import Foundation
import JWTKit

/// A stand-in for the company's identity provider: signing keys made for the test, their JWKS document, and
/// tokens signed with them carrying any claims (or forged in ways a real provider never signs).
public enum TestIdentityProvider {
    public static let issuer = "https://id.example.test/"
    public static let audience = "trip-history-api"

    /// A private key of the provider, with its public half as a JWK.
    public struct SigningKey: Sendable {
        public let kid: String
        /// `RS256` or `ES256`.
        public let algorithm: String
        /// The public key as a JWK (JSON object members).
        public let jwk: [String: String]
        /// The public key as PEM, what an algorithm-confusion attacker would use as an HMAC secret.
        public let publicKeyPEM: String
        let signer: JWTKeyCollection

        /// A token signed with this key whose payload is `claims`, its header naming this key's `kid`.
        public func token(_ claims: [String: ClaimValue]) async throws -> String {
            try await signer.sign(Claims(values: claims), kid: JWKIdentifier(string: kid))
        }
    }

    /// A new RSA key of 2048 bits (RS256).
    public static func rsaKey(kid: String) async throws -> SigningKey {
        let privateKey = try Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
        let primitives = try privateKey.publicKey.getKeyPrimitives()
        let signer = JWTKeyCollection()
        await signer.add(rsa: privateKey, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
        return SigningKey(
            kid: kid, algorithm: "RS256",
            jwk: [
                "kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256",
                "n": base64URL(Array(primitives.modulus)), "e": base64URL(Array(primitives.publicExponent)),
            ],
            publicKeyPEM: privateKey.publicKey.pemRepresentation, signer: signer)
    }

    /// A new P-256 key (ES256).
    public static func ecKey(kid: String) async throws -> SigningKey {
        let privateKey = ES256PrivateKey()
        let parameters = try requireParameters(privateKey.publicKey.parameters)
        let signer = JWTKeyCollection()
        await signer.add(ecdsa: privateKey, kid: JWKIdentifier(string: kid))
        return SigningKey(
            kid: kid, algorithm: "ES256",
            jwk: ["kty": "EC", "kid": kid, "crv": "P-256", "x": parameters.x, "y": parameters.y],
            publicKeyPEM: privateKey.publicKey.pemRepresentation, signer: signer)
    }

    /// The JWKS document listing `keys`, plus any `extra` JWKs as given.
    public static func jwks(_ keys: [SigningKey], extra: [[String: String]] = []) -> [UInt8] {
        let object: [String: Any] = ["keys": keys.map(\.jwk) + extra]
        return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
    }

    /// The usual claims of a token for this API, expiring in `expiresIn` seconds, with `extra` on top.
    public static func claims(
        role: ClaimValue?, subject: ClaimValue? = nil, expiresIn: Double = 600, now: Date = Date(),
        extra: [String: ClaimValue] = [:]
    ) -> [String: ClaimValue] {
        var claims: [String: ClaimValue] = [
            "iss": .string(issuer), "aud": .strings([audience, "another-api"]),
            "exp": .number(now.addingTimeInterval(expiresIn).timeIntervalSince1970),
            "iat": .number(now.timeIntervalSince1970),
        ]
        if let role { claims["role"] = role }
        if let subject { claims["sub"] = subject }
        return claims.merging(extra) { $1 }
    }

    /// A token with any header, signed with HMAC-SHA256 under `secret`, or unsigned when `secret` is nil.
    public static func handMadeToken(
        header: [String: String], claims: [String: ClaimValue], secret: [UInt8]?
    )
        throws -> String
    {
        let headerPart = base64URL(Array(try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])))
        let payloadPart = base64URL(Array(try JSONEncoder().encode(Claims(values: claims))))
        let signingInput = "\(headerPart).\(payloadPart)"
        guard let secret else { return signingInput + "." }
        let mac = HMAC<SHA256>.authenticationCode(for: Array(signingInput.utf8), using: SymmetricKey(data: secret))
        return signingInput + "." + base64URL(Array(mac))
    }

    /// A claim value of a test token.
    public enum ClaimValue: Sendable, Encodable {
        case string(String)
        case integer(Int64)
        case number(Double)
        case strings([String])

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let text): try container.encode(text)
            case .integer(let number): try container.encode(number)
            case .number(let number): try container.encode(number.rounded(.down))
            case .strings(let texts): try container.encode(texts)
            }
        }
    }

    struct Claims: JWTPayload {
        var values: [String: ClaimValue]

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(values: [String: ClaimValue]) {
            self.values = values
        }

        init(from decoder: any Decoder) throws {
            values = [:]
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (name, value) in values { try container.encode(value, forKey: Key(stringValue: name)) }
        }

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    struct MissingParameters: Error {}

    private static func requireParameters(_ parameters: ECDSAParameters?) throws -> ECDSAParameters {
        guard let parameters else { throw MissingParameters() }
        return parameters
    }
}
