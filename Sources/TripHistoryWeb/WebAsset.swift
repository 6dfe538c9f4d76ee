import Crypto
import Foundation
import NIOCore

/// One file built into the binary and served under a URL that carries a hash of its content, so it can be
/// cached for a year: a new build with different bytes gets a different URL.
struct WebAsset: Sendable {
    /// The file's name in `Assets/`, e.g. `explorer.js`.
    let name: String
    /// The `Content-Type` it is served with.
    let contentType: String
    /// The bytes as served.
    let body: ByteBuffer
    /// The path it is served at, e.g. `/assets/explorer.3f9a1c0b7d2e.js`.
    let path: String

    /// The number of hex digits of the content's SHA-256 kept in the file name: enough to tell builds apart.
    static let hashDigits = 12

    init(name: String, contentType: String, bytes: [UInt8]) {
        self.name = name
        self.contentType = contentType
        body = ByteBuffer(bytes: bytes)
        let hash = Self.hexDigest(of: bytes).prefix(Self.hashDigits)
        if let dot = name.lastIndex(of: ".") {
            path = "/assets/\(name[..<dot]).\(hash)\(name[dot...])"
        } else {
            path = "/assets/\(name).\(hash)"
        }
    }

    /// The SHA-256 of `bytes` in lowercase hex; also the strong entity tag of a page.
    static func hexDigest(of bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }
}
