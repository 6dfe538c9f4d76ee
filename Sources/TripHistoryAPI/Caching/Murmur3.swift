/// MurmurHash3's 128-bit variant for x64 (Austin Appleby's public-domain reference, `MurmurHash3_x64_128`):
/// a fast non-cryptographic hash, used for entity tags, where equal bodies must get equal tags on every
/// instance and different bodies different ones, with no adversary to defend against (a rider's tag only
/// names that rider's own page).
enum Murmur3 {
    /// The 16 bytes of the hash of `bytes` with `seed`, in the reference's order (`h1` then `h2`, each
    /// little-endian), so they match other implementations' output.
    static func hash128(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> [UInt8] {
        let (h1, h2) = lanes(bytes, seed: seed)
        return withUnsafeBytes(of: (h1.littleEndian, h2.littleEndian)) { Array($0) }
    }

    private static let c1: UInt64 = 0x87c3_7b91_1142_53d5
    private static let c2: UInt64 = 0x4cf5_ad43_2745_937f

    private static func lanes(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> (UInt64, UInt64) {
        var h1 = seed
        var h2 = seed
        let blocks = bytes.count / 16
        for block in 0..<blocks {
            let k1 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: block * 16, as: UInt64.self))
            let k2 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: block * 16 + 8, as: UInt64.self))
            h1 ^= mixK1(k1)
            h1 = rotate(h1, 27) &+ h2
            h1 = h1 &* 5 &+ 0x52dc_e729
            h2 ^= mixK2(k2)
            h2 = rotate(h2, 31) &+ h1
            h2 = h2 &* 5 &+ 0x3849_5ab5
        }
        let tail = blocks * 16
        let remaining = bytes.count - tail
        var k1: UInt64 = 0
        var k2: UInt64 = 0
        for index in stride(from: remaining - 1, through: 8, by: -1) {
            k2 ^= UInt64(bytes[tail + index]) << UInt64((index - 8) * 8)
        }
        if remaining > 8 { h2 ^= mixK2(k2) }
        for index in stride(from: min(remaining, 8) - 1, through: 0, by: -1) {
            k1 ^= UInt64(bytes[tail + index]) << UInt64(index * 8)
        }
        if remaining > 0 { h1 ^= mixK1(k1) }
        h1 ^= UInt64(bytes.count)
        h2 ^= UInt64(bytes.count)
        h1 = h1 &+ h2
        h2 = h2 &+ h1
        h1 = finalMix(h1)
        h2 = finalMix(h2)
        h1 = h1 &+ h2
        h2 = h2 &+ h1
        return (h1, h2)
    }

    @inline(__always) private static func mixK1(_ k: UInt64) -> UInt64 { rotate(k &* c1, 31) &* c2 }
    @inline(__always) private static func mixK2(_ k: UInt64) -> UInt64 { rotate(k &* c2, 33) &* c1 }

    @inline(__always) private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }

    @inline(__always) private static func finalMix(_ value: UInt64) -> UInt64 {
        var k = value
        k ^= k >> 33
        k = k &* 0xff51_afd7_ed55_8ccd
        k ^= k >> 33
        k = k &* 0xc4ce_b9fe_1a85_ec53
        k ^= k >> 33
        return k
    }
}
