import Crypto
public import Foundation
public import TripHistoryDomain

/// Turns changes-feed positions into opaque, signed `since` tokens bound to one rider, and back.
///
/// Layout before base64url: version (1 byte), rider id (8, big-endian), the position's sequence (8), the
/// start of the hour the token was issued in, in seconds (8), then the first 16 bytes of HMAC-SHA256 over all of that,
/// with a key derived from the service secret apart from the cursors' key. Signed with the current secret and
/// accepted under any accepted one, like cursors.
public struct SyncTokenCodec: Sendable {
    /// Why a token was refused.
    public enum DecodingError: Error, Hashable, Sendable {
        /// Not base64url, wrong length, unknown version, or a bad signature.
        case invalid
        /// Signed by this service, but for another rider's feed.
        case mismatch
        /// Issued longer ago than the feed keeps changes.
        case expired
    }

    static let version: UInt8 = 1
    private static let payloadLength = 25
    private static let macLength = 16

    private let keys: [SymmetricKey]

    public init(secrets: SigningSecrets) {
        keys = secrets.all.map { secret in
            SymmetricKey(data: SigningSecrets.derivedKey(from: secret, label: "trip-history sync token v1"))
        }
    }

    /// The issue time a token carries: the start of its hour, so that a feed read again within the hour with
    /// nothing new gets the same token, and the same entity tag. Expiry allows for the hour.
    private static func issueHour(_ now: Date) -> Int64 {
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        return seconds - seconds % 3600
    }

    /// The token for `position` in `riderID`'s feed, issued at `now`.
    public func encode(_ position: ChangePosition, riderID: RiderID, now: Date) -> String {
        var bytes: [UInt8] = [Self.version]
        bytes.reserveCapacity(Self.payloadLength + Self.macLength)
        for value in [riderID.rawValue, position.sequence, Self.issueHour(now)] {
            let bits = UInt64(bitPattern: value)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: bits >> shift)) }
        }
        let mac = HMAC<SHA256>.authenticationCode(for: bytes, using: keys[0])
        bytes.append(contentsOf: mac.prefix(Self.macLength))
        return Base64URL.encode(bytes)
    }

    /// The position a token names, once its signature, rider and age are checked.
    public func decode(
        _ token: some StringProtocol, riderID: RiderID, now: Date, retention: TimeInterval
    ) throws(DecodingError) -> ChangePosition {
        guard token.utf8.count <= 128, let bytes = Base64URL.decode(token),
            bytes.count == Self.payloadLength + Self.macLength, bytes[0] == Self.version
        else { throw .invalid }
        let payload = bytes[0..<Self.payloadLength]
        let mac = Array(bytes[Self.payloadLength...])
        let signed = keys.contains { key in
            let expected = Array(HMAC<SHA256>.authenticationCode(for: payload, using: key).prefix(Self.macLength))
            return zip(expected, mac).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
        }
        guard signed else { throw .invalid }
        func value(at offset: Int) -> Int64 {
            var bits: UInt64 = 0
            for index in offset..<offset + 8 { bits = bits << 8 | UInt64(bytes[index]) }
            return Int64(bitPattern: bits)
        }
        guard value(at: 1) == riderID.rawValue else { throw .mismatch }
        let issued = Date(timeIntervalSince1970: TimeInterval(value(at: 17)))
        guard now.timeIntervalSince(issued) <= retention + 3600 else { throw .expired }
        return ChangePosition(sequence: value(at: 9))
    }
}
