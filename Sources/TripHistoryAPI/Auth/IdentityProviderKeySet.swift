import Foundation
import JWTKit

/// The signing keys of one JWKS document of the identity provider, each with the one algorithm it verifies.
///
/// Only RS256 (an RSA key of at least 2048 bits) and ES256 (a P-256 key) are kept; a key with another type,
/// curve or `alg`, a `use` other than `sig`, no `kid`, or a `kid` already taken is skipped, so a JWKS that
/// also lists encryption keys still works. A key's algorithm comes from its type, never from a token, so a
/// token cannot have an RSA key used as an HMAC secret (algorithm confusion).
struct IdentityProviderKeySet: Sendable {
    /// The algorithms accepted from the identity provider.
    enum Algorithm: String, Sendable, CaseIterable {
        case rs256 = "RS256"
        case es256 = "ES256"
    }

    /// One key: a collection holding it under its `kid`, and the algorithm it verifies.
    struct Entry: Sendable {
        let keys: JWTKeyCollection
        let algorithm: Algorithm
    }

    /// Every kept key under its `kid`, with no default, so a token naming another `kid` finds no key.
    let keys: JWTKeyCollection
    /// The algorithm of each kept key, by `kid`.
    let algorithms: [String: Algorithm]

    /// The key named `kid`, if kept.
    func entry(for kid: String) -> Entry? {
        algorithms[kid].map { Entry(keys: keys, algorithm: $0) }
    }

    /// Why a JWKS document was refused as a whole; the previous keys stay in use.
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// Not a JSON object with a `keys` array.
        case malformed
        /// More keys than the bound, so a broken or hostile document cannot make the service build many keys.
        case tooManyKeys(limit: Int)
        /// No key this service can verify with.
        case noUsableKey

        var description: String {
            switch self {
            case .malformed: "the JWKS document is not a JSON object with a keys array"
            case .tooManyKeys(let limit): "the JWKS document lists more than \(limit) keys"
            case .noUsableKey: "the JWKS document has no RS256 or ES256 signing key with a kid"
            }
        }
    }

    /// The keys of `document`, a JWKS in JSON listing at most `maximumKeys` keys.
    init(document: [UInt8], maximumKeys: Int) async throws(Failure) {
        let decoded: Document
        do {
            decoded = try JSONDecoder().decode(Document.self, from: Data(document))
        } catch {
            throw .malformed
        }
        guard decoded.keys.count <= maximumKeys else { throw .tooManyKeys(limit: maximumKeys) }
        let keys = JWTKeyCollection()
        var algorithms: [String: Algorithm] = [:]
        for key in decoded.keys {
            guard let kid = key.kid, !kid.isEmpty, algorithms[kid] == nil, key.use == nil || key.use == "sig" else {
                continue
            }
            let identifier = JWKIdentifier(string: kid)
            switch (key.kty, key.alg) {
            case ("RSA", nil), ("RSA", "RS256"):
                guard let modulus = key.n, let exponent = key.e,
                    let publicKey = try? Insecure.RSA.PublicKey(modulus: modulus, exponent: exponent)
                else { continue }
                await keys.add(rsa: publicKey, digestAlgorithm: .sha256, kid: identifier)
                algorithms[kid] = .rs256
            case ("EC", nil), ("EC", "ES256"):
                guard key.crv == "P-256", let x = key.x, let y = key.y,
                    let publicKey = try? ES256PublicKey(parameters: (x, y))
                else { continue }
                await keys.add(ecdsa: publicKey, kid: identifier)
                algorithms[kid] = .es256
            default:
                continue
            }
        }
        guard !algorithms.isEmpty else { throw .noUsableKey }
        // The first key added became the default, which jwt-kit would try for a token naming an unknown kid.
        await keys.clearDefault()
        self.keys = keys
        self.algorithms = algorithms
    }

    /// A JWKS document: only `keys` is read.
    private struct Document: Decodable {
        var keys: [Key]
    }

    /// The members of a JWK this service reads; a member of another type than expected counts as absent, so one
    /// odd key does not refuse the whole document.
    private struct Key: Decodable {
        var kty: String?
        var kid: String?
        var use: String?
        var alg: String?
        var crv: String?
        var n: String?
        var e: String?
        var x: String?
        var y: String?

        enum CodingKeys: String, CodingKey {
            case kty, kid, use, alg, crv, n, e, x, y
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func text(_ key: CodingKeys) -> String? { try? container.decodeIfPresent(String.self, forKey: key) }
            kty = text(.kty)
            kid = text(.kid)
            use = text(.use)
            alg = text(.alg)
            crv = text(.crv)
            n = text(.n)
            e = text(.e)
            x = text(.x)
            y = text(.y)
        }
    }
}
