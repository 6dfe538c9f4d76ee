import Foundation
import Testing
import TripHistoryDomain

@testable import TripHistoryAPI

/// The analysts' feed tokens: one PostgreSQL's fixed layout and the sharded topology's positions per partition,
/// each signed, and refused when altered or of another feed.
@Suite struct SyncTokenCodecTests {
    let codec = SyncTokenCodec(secrets: SigningSecrets(current: Array("sync-token-codec-test-secret-0123".utf8)))
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    @Test func aPartitionedPositionComesBackAsItWent() throws {
        let positions = (0..<64).map { (partition: Int) -> AnalystChangePosition in
            let transaction: UInt64 = partition == 3 ? .max : UInt64(900_000 + partition * 17)
            let riderID: Int64 = partition == 5 ? .max : Int64(partition)
            return AnalystChangePosition(transaction: transaction, riderID: riderID, sequence: Int64(partition % 4))
        }
        let position = AnalystFeedPosition.partitioned(topology: 0xdead_beef_0123_4567, positions: positions)
        let token = codec.encode(position, now: now)
        #expect(try codec.decodeAnalyst(token, now: now, retention: 86_400) == position)
        // About a dozen characters per partition of this size, so 64 partitions fit a URL easily.
        #expect(token.utf8.count < 64 * 16)
    }

    @Test func oneNodeTokensKeepTheirLayout() throws {
        let position = AnalystFeedPosition.node(AnalystChangePosition(transaction: 42, riderID: 7, sequence: 3))
        let token = codec.encode(position, now: now)
        #expect(token.utf8.count == 66)  // 1 + 4 * 8 + 16 bytes in base64url
        #expect(try codec.decodeAnalyst(token, now: now, retention: 86_400) == position)
    }

    @Test func anAlteredOrForeignTokenIsRefused() throws {
        let position = AnalystFeedPosition.partitioned(
            topology: 9, positions: [AnalystChangePosition(transaction: 5, riderID: 0, sequence: 0)])
        var bytes = try #require(Base64URL.decode(codec.encode(position, now: now)))
        bytes[3] ^= 1
        #expect(throws: SyncTokenCodec.DecodingError.invalid) {
            try codec.decodeAnalyst(Base64URL.encode(bytes), now: now, retention: 86_400)
        }
        let other = SyncTokenCodec(secrets: SigningSecrets(current: Array("another-secret-of-32-bytes-000000".utf8)))
        #expect(throws: SyncTokenCodec.DecodingError.invalid) {
            try codec.decodeAnalyst(other.encode(position, now: now), now: now, retention: 86_400)
        }
        let riderToken = codec.encode(ChangePosition(sequence: 4), riderID: try #require(RiderID(8)), now: now)
        #expect(throws: SyncTokenCodec.DecodingError.mismatch) {
            try codec.decodeAnalyst(riderToken, now: now, retention: 86_400)
        }
        #expect(throws: SyncTokenCodec.DecodingError.mismatch) {
            try codec.decode(
                codec.encode(position, now: now), riderID: try #require(RiderID(8)), now: now,
                retention: 86_400)
        }
        #expect(throws: SyncTokenCodec.DecodingError.expired) {
            try codec.decodeAnalyst(
                codec.encode(position, now: now), now: now + 3 * 86_400, retention: 86_400)
        }
    }
}
