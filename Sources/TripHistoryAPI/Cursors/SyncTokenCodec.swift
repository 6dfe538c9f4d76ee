public import Foundation
public import TripHistoryDomain

/// Turns changes-feed positions into opaque, signed `since` tokens, and back: a rider's feed's tokens are bound
/// to the rider, the analysts' feed has tokens of its own.
///
/// Layout before base64url: the version, which names the feed (1 byte: 1 a rider's, 2 the analysts' on one
/// PostgreSQL, 3 the analysts' on the sharded topology), the position's fields, the start of the hour the token
/// was issued in, in seconds, then the first 16 bytes of HMAC-SHA256 over all of that, with a key derived from
/// the service secret apart from the cursors' key. Versions 1 and 2 hold 8-byte big-endian fields (a rider's:
/// rider id and sequence; the analysts': transaction, rider id and sequence); version 3 holds LEB128 varints
/// (the topology's fingerprint, the number of partitions, then each partition's transaction, rider id and
/// sequence), so it grows with the partitions, by 3 to 30 bytes each. Signed with the current secret and
/// accepted under any accepted one, like cursors. A well-signed token of another feed, or of another rider, is a
/// mismatch.
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

    /// Which feed a token belongs to, and how its position is laid out.
    private enum Feed: UInt8 {
        case rider = 1
        case analyst = 2
        case partitionedAnalyst = 3

        /// The fixed number of 8-byte position fields; nil for the varint layout.
        var positionFields: Int? {
            switch self {
            case .rider: 2
            case .analyst: 3
            case .partitionedAnalyst: nil
            }
        }
    }

    /// The longest token accepted: a sharded topology's of up to about 500 partitions at their widest.
    private static let maximumTokenLength = 16_384

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
    public func encode(_ position: AnalystFeedPosition, now: Date) -> String {
        switch position {
        case .node(let position):
            return encode(.analyst, Self.fields(position), now: now)
        case .partitioned(let topology, let positions):
            let fields = [Int64(bitPattern: topology), Int64(positions.count)] + positions.flatMap(Self.fields)
            return encode(.partitionedAnalyst, fields, now: now)
        }
    }

    /// The position a token of `riderID`'s feed names, once its signature, feed, rider and age are checked.
    public func decode(
        _ token: some StringProtocol, riderID: RiderID, now: Date, retention: TimeInterval
    ) throws(DecodingError) -> ChangePosition {
        let (feed, fields) = try decode(token, now: now, retention: retention)
        guard feed == .rider, fields[0] == riderID.rawValue else { throw .mismatch }
        return ChangePosition(sequence: fields[1])
    }

    /// The position a token of the analysts' feed names, once its signature, feed and age are checked.
    public func decodeAnalyst(
        _ token: some StringProtocol, now: Date, retention: TimeInterval
    ) throws(DecodingError) -> AnalystFeedPosition {
        let (feed, fields) = try decode(token, now: now, retention: retention)
        switch feed {
        case .rider:
            throw .mismatch
        case .analyst:
            return .node(Self.position(fields[...]))
        case .partitionedAnalyst:
            guard fields.count >= 2, fields[1] >= 1, fields.count == 2 + 3 * Int(fields[1]) else { throw .invalid }
            let positions = stride(from: 2, to: fields.count, by: 3).map { Self.position(fields[$0..<$0 + 3]) }
            return .partitioned(topology: UInt64(bitPattern: fields[0]), positions: positions)
        }
    }

    private static func fields(_ position: AnalystChangePosition) -> [Int64] {
        [Int64(bitPattern: position.transaction), position.riderID, position.sequence]
    }

    private static func position(_ fields: ArraySlice<Int64>) -> AnalystChangePosition {
        let start = fields.startIndex
        return AnalystChangePosition(
            transaction: UInt64(bitPattern: fields[start]), riderID: fields[start + 1], sequence: fields[start + 2])
    }

    private func encode(_ feed: Feed, _ fields: [Int64], now: Date) -> String {
        var bytes: [UInt8] = [feed.rawValue]
        bytes.reserveCapacity(1 + 8 * (fields.count + 1) + TruncatedMAC.length)
        for value in fields + [Self.issueHour(now)] {
            let bits = UInt64(bitPattern: value)
            if feed.positionFields == nil {
                var rest = bits
                while rest >= 0x80 {
                    bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
                    rest >>= 7
                }
                bytes.append(UInt8(rest))
            } else {
                for shift in stride(from: 56, through: 0, by: -8) {
                    bytes.append(UInt8(truncatingIfNeeded: bits >> shift))
                }
            }
        }
        bytes.append(contentsOf: mac.sign(bytes[...]))
        return Base64URL.encode(bytes)
    }

    /// The feed and position fields of a well-signed token issued within the retention.
    private func decode(
        _ token: some StringProtocol, now: Date, retention: TimeInterval
    ) throws(DecodingError) -> (Feed, [Int64]) {
        guard token.utf8.count <= Self.maximumTokenLength, let bytes = Base64URL.decode(token),
            let version = bytes.first, let feed = Feed(rawValue: version), bytes.count > 1 + TruncatedMAC.length,
            mac.isSignature(
                bytes[(bytes.count - TruncatedMAC.length)...], of: bytes[..<(bytes.count - TruncatedMAC.length)])
        else { throw .invalid }
        let payload = bytes[1..<(bytes.count - TruncatedMAC.length)]
        var values: [Int64] = []
        if let fields = feed.positionFields {
            guard payload.count == 8 * (fields + 1) else { throw .invalid }
            values = stride(from: payload.startIndex, to: payload.endIndex, by: 8).map { start in
                Int64(bitPattern: payload[start..<start + 8].reduce(0) { $0 << 8 | UInt64($1) })
            }
        } else {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            for byte in payload {
                guard shift < 64 else { throw .invalid }
                value |= UInt64(byte & 0x7f) << shift
                shift += 7
                if byte < 0x80 {
                    values.append(Int64(bitPattern: value))
                    value = 0
                    shift = 0
                }
            }
            guard shift == 0, !values.isEmpty else { throw .invalid }
        }
        let issued = Date(timeIntervalSince1970: TimeInterval(values.removeLast()))
        guard now.timeIntervalSince(issued) <= retention + 3600 else { throw .expired }
        return (feed, values)
    }
}
