/// Which logical partition holds a rider's trips when trips are sharded by rider: the one placement rule that
/// the proxy database, the seeder, the tests and any tool reading a partition directly all follow.
///
/// The rule is PL/Proxy's `RUN ON hashint8(rider_id)` on a cluster of `partitions` partitions:
/// `hashint8(rider_id) & (partitions - 1)`, with PostgreSQL's `hashint8`. The proxy database's
/// `trip_history_partition(rider_id)` is the same rule in SQL. PostgreSQL's own hash partitioning
/// (`PARTITION BY HASH`) hashes with a seed and places riders differently, so it must not be used beside it.
public struct RiderPlacement: Hashable, Sendable {
    /// The accepted numbers of partitions: powers of two, since PL/Proxy masks the hash with `partitions - 1`.
    public static let maximumPartitions = 1 << 16

    /// The number of logical partitions, a power of two.
    public let partitions: Int

    /// Nil unless `partitions` is a power of two from 1 to `maximumPartitions`.
    public init?(partitions: Int) {
        guard partitions > 0, partitions <= Self.maximumPartitions, partitions & (partitions - 1) == 0 else {
            return nil
        }
        self.partitions = partitions
    }

    /// The partition, from 0 to `partitions - 1`, of a rider id.
    public func partition(of riderID: Int64) -> Int {
        Int(UInt32(bitPattern: Self.hashint8(riderID)) & UInt32(partitions - 1))
    }

    /// The partition of a rider.
    public func partition(of rider: RiderID) -> Int {
        partition(of: rider.rawValue)
    }

    /// PostgreSQL's `hashint8(bigint) RETURNS integer` (src/backend/access/hash/hashfunc.c): the 64-bit value
    /// folded into 32 bits (the low half xor the high half, or its complement for negative values, so an
    /// `int8` hashes like the equal `int4`), then hashed by `hash_uint32`.
    public static func hashint8(_ value: Int64) -> Int32 {
        let low = UInt32(truncatingIfNeeded: value)
        let high = UInt32(truncatingIfNeeded: value >> 32)
        let folded = low ^ (value >= 0 ? high : ~high)
        return Int32(bitPattern: hashUInt32(folded))
    }

    /// PostgreSQL's `hash_bytes_uint32` (src/common/hashfn.c): Bob Jenkins' lookup3 over one 32-bit word, the
    /// same result as hashing its four bytes with `hash_bytes`.
    static func hashUInt32(_ key: UInt32) -> UInt32 {
        let initial: UInt32 = 0x9e37_79b9 &+ 4 &+ 3_923_095
        var a = initial &+ key
        var b = initial
        var c = initial
        // lookup3's final(a, b, c): every input bit reaches every bit of c.
        c ^= b
        c &-= rotate(b, 14)
        a ^= c
        a &-= rotate(c, 11)
        b ^= a
        b &-= rotate(a, 25)
        c ^= b
        c &-= rotate(b, 16)
        a ^= c
        a &-= rotate(c, 4)
        b ^= a
        b &-= rotate(a, 14)
        c ^= b
        c &-= rotate(b, 24)
        return c
    }

    private static func rotate(_ value: UInt32, _ bits: UInt32) -> UInt32 {
        (value << bits) | (value >> (32 - bits))
    }
}
