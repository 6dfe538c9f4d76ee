/// A position in PostgreSQL's write-ahead log (`pg_lsn`, written `16/B374D848`), as one ordered 64-bit number.
public struct WALPosition: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let value: UInt64

    public init(_ value: UInt64) {
        self.value = value
    }

    /// Parses the text form of `pg_lsn`; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let high = UInt32(parts[0], radix: 16), let low = UInt32(parts[1], radix: 16) else {
            return nil
        }
        value = UInt64(high) << 32 | UInt64(low)
    }

    public static let zero = WALPosition(0)
    /// Past every real position: what a server that is not replaying (a primary) has "replayed".
    public static let end = WALPosition(.max)

    public var description: String {
        String(value >> 32, radix: 16, uppercase: true) + "/" + String(value & 0xFFFF_FFFF, radix: 16, uppercase: true)
    }

    public static func < (lhs: WALPosition, rhs: WALPosition) -> Bool { lhs.value < rhs.value }
}
