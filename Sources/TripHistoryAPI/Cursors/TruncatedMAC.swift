import Crypto

/// Signs the opaque tokens the service hands out (cursors, sync tokens) with the first 16 bytes of
/// HMAC-SHA256, and checks them: signed with the current secret's key, accepted under any accepted secret's
/// key, compared in constant time.
///
/// Each key's HMAC is set up once (the key's inner and outer hash states) and copied for every token, since
/// setting it up costs as much as hashing a short token.
struct TruncatedMAC: Sendable {
    static let length = 16

    /// The current secret's keyed HMAC, which signs, then the previous secrets'.
    private let keyed: [HMAC<SHA256>]

    /// One key per secret of `secrets`, derived from it under `label` so each kind of token has its own key.
    init(secrets: SigningSecrets, label: String) {
        keyed = secrets.all.map { secret in
            HMAC<SHA256>(key: SymmetricKey(data: SigningSecrets.derivedKey(from: secret, label: label)))
        }
    }

    /// The signature of `payload` under the current key.
    func sign(_ payload: ArraySlice<UInt8>) -> [UInt8] {
        var mac = keyed[0]
        mac.update(data: payload)
        return Array(mac.finalize().prefix(Self.length))
    }

    /// Whether `signature` is `payload`'s under any accepted key.
    func isSignature(_ signature: ArraySlice<UInt8>, of payload: ArraySlice<UInt8>) -> Bool {
        guard signature.count == Self.length else { return false }
        return keyed.contains { keyed in
            var mac = keyed
            mac.update(data: payload)
            var difference: UInt8 = 0
            for (expected, given) in zip(mac.finalize().prefix(Self.length), signature) {
                difference |= expected ^ given
            }
            return difference == 0
        }
    }
}
