import Foundation
import NIOCore
import Testing

@testable import TripHistoryAPI

/// Entity tags: the hash under them matches the reference MurmurHash3_x64_128, and different bodies of the
/// kind the service sends get different tags.
@Suite struct EntityTagTests {
    /// Vectors of the reference implementation (seed 0 unless named), as the `mmh3` package prints them with
    /// `hash_bytes`: every tail length from 0 to 15 bytes, whole blocks, and a seed.
    @Test(arguments: [
        ("", 0, "00000000000000000000000000000000"),
        ("a", 0, "897859f6655555855a890e51483ab5e6"),
        ("hello", 0, "029bbd41b3a7d8cb191dae486a901e5b"),
        ("01234567", 0, "4d3587739b033682204996d8879336c3"),
        ("012345678", 0, "ba38e79f51871e4cf197d599f87aa172"),
        ("hello, world", 0, "8ebc5e3a62ac2f344d41429607bcdc4c"),
        ("0123456789abcdef", 0, "a7d14acf946de04bda08a7635c5bc387"),
        ("0123456789abcdefg", 0, "def945aa2d61328eee72c306c2f40008"),
        ("The quick brown fox jumps over the lazy dog", 0, "6c1b07bc7bbc4be347939ac4a93c437a"),
        ("hello", 42, "086faf60c9b3b8c47abcefb075b83423"),
    ])
    func murmur3MatchesTheReference(input: String, seed: UInt64, expected: String) {
        let digest = Array(input.utf8).withUnsafeBytes { Murmur3.hash128($0, seed: seed) }
        #expect(digest.map { String(format: "%02x", $0) }.joined() == expected)
    }

    @Test func murmur3OfEveryByteValue() {
        let digest = Array(0...255).map(UInt8.init).withUnsafeBytes { Murmur3.hash128($0) }
        #expect(digest.map { String(format: "%02x", $0) }.joined() == "b9126fdc13c3991c1ecc34ab7f07d670")
    }

    /// Pages that differ in one trip's version, one digit of a fare, one letter of an address or only in
    /// length get pairwise different tags; equal bytes get equal tags.
    @Test func differentBodiesGetDifferentTags() {
        var tags = Set<String>()
        var bodies = 0
        for fare in 0..<400 {
            for version in 1...50 {
                for address in ["1 Rue de Rivoli", "1 Rue de Rivol", "1 Rue de Rivoli ", "2 Rue de Rivoli"] {
                    let body =
                        #"{"data":[{"id":"34","version":\#(version),"fare":{"amount_minor":\#(fare)},"#
                        + #""pickup":{"address":"\#(address)"}}],"page":{"limit":20}}"#
                    tags.insert(EntityTag.strong(for: ByteBuffer(string: body)))
                    bodies += 1
                }
            }
        }
        #expect(tags.count == bodies)
        #expect(EntityTag.strong(for: ByteBuffer(string: "same")) == EntityTag.strong(for: ByteBuffer(string: "same")))
    }

    /// Flipping any one bit of a page-sized body changes its tag.
    @Test func everyBitOfALargeBodyCounts() {
        let original = (0..<16_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let tag = EntityTag.strong(for: ByteBuffer(bytes: original))
        var seen = Set([tag])
        for index in stride(from: 0, to: original.count, by: 97) {
            for bit in 0..<8 {
                var flipped = original
                flipped[index] ^= 1 << bit
                seen.insert(EntityTag.strong(for: ByteBuffer(bytes: flipped)))
            }
        }
        #expect(seen.count == 1 + (original.count + 96) / 97 * 8)
    }

    @Test func aTripTagNamesItsVersion() {
        let tag = EntityTag.strong(for: ByteBuffer(string: "{}"), version: 7)
        #expect(tag.hasPrefix("\"v7.") && tag.hasSuffix("\"") && tag.count == 4 + 22 + 1)
        #expect(EntityTag.ifMatchVersion([tag]) == .some(7))
    }
}
