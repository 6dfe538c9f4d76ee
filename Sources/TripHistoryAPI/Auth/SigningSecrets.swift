import Crypto

/// The service secrets that tokens and cursors are signed and verified with: one current secret, which signs
/// everything new, and the previous ones, still accepted so a rotation neither logs callers out nor breaks
/// their cursors until the old secret is dropped.
public struct SigningSecrets: Sendable {
    /// Signs new tokens and cursors, and verifies them.
    public let current: [UInt8]
    /// Only verify; duplicates of `current` or of each other are left out.
    public let previous: [[UInt8]]

    /// `current` first, then the distinct `previous` secrets that differ from it, in the order given.
    public init(current: [UInt8], previous: [[UInt8]] = []) {
        self.current = current
        var distinct: [[UInt8]] = []
        for secret in previous where secret != current && !distinct.contains(secret) { distinct.append(secret) }
        self.previous = distinct
    }

    /// Every accepted secret, the current one first.
    public var all: [[UInt8]] { [current] + previous }

    /// The key id of tokens signed with `secret`: derived from it (the first 8 bytes of an HMAC, base64url),
    /// so operators never manage key ids, and telling nothing about the secret itself.
    public static func keyID(of secret: [UInt8]) -> String {
        Base64URL.encode(Array(derivedKey(from: secret, label: "trip-history key id v1").prefix(8)))
    }

    /// A 32-byte key for one purpose (`label`) derived from `secret`, so tokens, cursors and key ids never
    /// share a key.
    static func derivedKey(from secret: [UInt8], label: String) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Array(label.utf8), using: SymmetricKey(data: secret)))
    }
}
