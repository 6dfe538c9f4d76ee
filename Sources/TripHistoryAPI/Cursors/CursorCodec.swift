import Crypto
import Foundation
public import TripHistoryDomain

/// Turns page positions into opaque, signed cursor strings and back.
///
/// Layout before base64url: version (1 byte), direction (1), request time in µs (8, big-endian), trip id (8),
/// the first 8 bytes of SHA-256 over the cursor's scope (the rider and the filter it was issued for), then the
/// first 16 bytes of HMAC-SHA256 over all of that. The signature makes a forged or edited cursor detectable
/// (`invalid_cursor`); the scope digest catches a genuine cursor sent with another rider or filter
/// (`cursor_mismatch`), which would otherwise silently skip or repeat trips. Cursors are signed with the current
/// secret's key and accepted under any accepted secret's key, tried in order, so a cursor issued before a
/// rotation pages on until its secret is dropped.
public struct CursorCodec: Sendable {
    /// Why a cursor was refused.
    public enum DecodingError: Error, Hashable, Sendable {
        /// Not base64url, wrong length, unknown version, or a bad signature.
        case invalid
        /// Signed by this service, but for another rider or filter.
        case mismatch
    }

    static let version: UInt8 = 1
    private static let payloadLength = 26

    private let mac: TruncatedMAC

    /// `secret` is the service secret; the cursor key is derived from it so tokens and cursors never share a key.
    public init(secret: [UInt8]) {
        self.init(secrets: SigningSecrets(current: secret))
    }

    /// Signs with the key of the current secret of `secrets` and accepts cursors signed with any of them.
    public init(secrets: SigningSecrets) {
        mac = TruncatedMAC(secrets: secrets, label: "trip-history cursor key v1")
    }

    /// The cursor for `position`, valid only with the same `scope`.
    public func encode(_ position: PagePosition, scope: CursorScope) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.payloadLength + TruncatedMAC.length)
        bytes.append(Self.version)
        bytes.append(position.direction.rawValue)
        appendBigEndian(&bytes, position.key.requestedAtMicros)
        appendBigEndian(&bytes, position.key.id.rawValue)
        bytes.append(contentsOf: scope.digest)
        bytes.append(contentsOf: mac.sign(bytes[...]))
        return Base64URL.encode(bytes)
    }

    /// The position a cursor names, after checking its signature and that it belongs to `scope`.
    public func decode(_ cursor: some StringProtocol, scope: CursorScope) throws(DecodingError) -> PagePosition {
        guard cursor.utf8.count <= 128, let bytes = Base64URL.decode(cursor),
            bytes.count == Self.payloadLength + TruncatedMAC.length, bytes[0] == Self.version,
            mac.isSignature(bytes[Self.payloadLength...], of: bytes[0..<Self.payloadLength])
        else { throw .invalid }
        guard let direction = PageDirection(rawValue: bytes[1]),
            let id = TripID(readBigEndian(bytes, at: 10))
        else { throw .invalid }
        guard Array(bytes[18..<26]) == scope.digest else { throw .mismatch }
        let key = TripKey(requestedAtMicros: readBigEndian(bytes, at: 2), id: id)
        return PagePosition(key: key, direction: direction)
    }

    private func appendBigEndian(_ bytes: inout [UInt8], _ value: Int64) {
        let bits = UInt64(bitPattern: value)
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: bits >> shift)) }
    }

    private func readBigEndian(_ bytes: [UInt8], at offset: Int) -> Int64 {
        var bits: UInt64 = 0
        for index in offset..<offset + 8 { bits = bits << 8 | UInt64(bytes[index]) }
        return Int64(bitPattern: bits)
    }
}

/// What a cursor is bound to: a list's owner and its filter. Two requests may share cursors exactly when
/// their scopes are equal.
public struct CursorScope: Sendable, Hashable {
    let digest: [UInt8]

    /// The scope of a rider's list under `filter`.
    public init(riderID: RiderID, filter: TripFilter) {
        let text = [
            "rider=\(riderID)",
            "from=\(filter.range.from.map { String(Timestamp.micros($0)) } ?? "-")",
            "to=\(filter.range.to.map { String(Timestamp.micros($0)) } ?? "-")",
            "status=\(filter.status?.rawValue ?? "-")",
        ].joined(separator: "&")
        digest = Array(SHA256.hash(data: Array(text.utf8)).prefix(8))
    }
}
