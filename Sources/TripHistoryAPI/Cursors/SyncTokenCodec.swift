public import Foundation
public import TripHistoryDomain

/// Turns changes-feed positions into opaque, signed `since` tokens, and back: a rider's feed's tokens are bound
/// to the rider, the analysts' feed has tokens of its own.
///
/// Layout before base64url: the version, which names the feed (1 byte: 1 a rider's, 2 the analysts'), the
/// position's fields (a rider's: rider id and sequence; the analysts': transaction, rider id and sequence; 8
/// bytes each, big-endian), the start of the hour the token was issued in, in seconds (8), then the first 16
/// bytes of HMAC-SHA256 over all of that, with a key derived from the service secret apart from the cursors'
/// key. Signed with the current secret and accepted under any accepted one, like cursors. A well-signed token
/// of the other feed, or of another rider, is a mismatch.
public struct SyncTokenCodec: Sendable {
    /// Why a token was refused.
    public enum DecodingError: Error, Hashable, Sendable {
        /// Not base64url, wrong length, unknown version, or a bad signature.
        case invalid
        /// Signed by this service, but for another rider's feed or the other feed.
        case mismatch
        /// Issued longer ago than the feed keeps changes.
        case expired
    }

    /// Which feed a token belongs to, and how many 8-byte fields its position has.
    private enum Feed: UInt8 {
        case rider = 1
        case analyst = 2

        var positionFields: Int { self == .rider ? 2 : 3 }
        var tokenLength: Int { 1 + 8 * (positionFields + 1) + TruncatedMAC.length }
    }

    private let mac: TruncatedMAC

    public init(secrets: SigningSecrets) {
        mac = TruncatedMAC(secrets: secrets, label: "trip-history sync token v1")
    }

    /// The issue time a token carries: the start of its hour, so that a feed read again within the hour with
    /// nothing new gets the same token, and the same entity tag. Expiry allows for the hour.
    private static func issueHour(_ now: Date) -> Int64 {
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        return seconds - seconds % 3600
    }

    /// The token for `position` in `riderID`'s feed, issued at `now`.
    public func encode(_ position: ChangePosition, riderID: RiderID, now: Date) -> String {
        encode(.rider, [riderID.rawValue, position.sequence], now: now)
    }

    /// The token for `position` in the analysts' feed, issued at `now`.
    public func encode(_ position: AnalystChangePosition, now: Date) -> String {
        encode(.analyst, [Int64(bitPattern: position.transaction), position.riderID, position.sequence], now: now)
    }

    /// The position a token of `riderID`'s feed names, once its signature, feed, rider and age are checked.
    public func decode(
        _ token: some StringProtocol, riderID: RiderID, now: Date, retention: TimeInterval
    ) throws(DecodingError) -> ChangePosition {
        let fields = try decode(token, as: .rider, now: now, retention: retention)
        guard fields[0] == riderID.rawValue else { throw .mismatch }
        return ChangePosition(sequence: fields[1])
    }

    /// The position a token of the analysts' feed names, once its signature, feed and age are checked.
    public func decodeAnalyst(
        _ token: some StringProtocol, now: Date, retention: TimeInterval
    ) throws(DecodingError) -> AnalystChangePosition {
        let fields = try decode(token, as: .analyst, now: now, retention: retention)
        return AnalystChangePosition(
            transaction: UInt64(bitPattern: fields[0]), riderID: fields[1], sequence: fields[2])
    }

    private func encode(_ feed: Feed, _ fields: [Int64], now: Date) -> String {
        var bytes: [UInt8] = [feed.rawValue]
        bytes.reserveCapacity(feed.tokenLength)
        for value in fields + [Self.issueHour(now)] {
            let bits = UInt64(bitPattern: value)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: bits >> shift)) }
        }
        bytes.append(contentsOf: mac.sign(bytes[...]))
        return Base64URL.encode(bytes)
    }

    /// The position fields of a well-signed token of `feed` issued within the retention.
    private func decode(
        _ token: some StringProtocol, as feed: Feed, now: Date, retention: TimeInterval
    ) throws(DecodingError) -> [Int64] {
        guard token.utf8.count <= 128, let bytes = Base64URL.decode(token), let version = bytes.first,
            let tokenFeed = Feed(rawValue: version), bytes.count == tokenFeed.tokenLength,
            mac.isSignature(
                bytes[(bytes.count - TruncatedMAC.length)...], of: bytes[..<(bytes.count - TruncatedMAC.length)])
        else { throw .invalid }
        guard tokenFeed == feed else { throw .mismatch }
        let values = (0...feed.positionFields).map { field in
            var bits: UInt64 = 0
            for index in 1 + 8 * field..<9 + 8 * field { bits = bits << 8 | UInt64(bytes[index]) }
            return Int64(bitPattern: bits)
        }
        let issued = Date(timeIntervalSince1970: TimeInterval(values[feed.positionFields]))
        guard now.timeIntervalSince(issued) <= retention + 3600 else { throw .expired }
        return Array(values.prefix(feed.positionFields))
    }
}
