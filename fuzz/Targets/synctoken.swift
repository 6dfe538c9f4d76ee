import Foundation
import TripHistoryDomain

@testable import TripHistoryAPI

// libFuzzer target: the changes feeds' `since` tokens. Any string must decode or be refused without trapping;
// the position of a token that decodes round-trips through a new token; a position built from the input round-trips
// for its rider, is a mismatch for another and expires after the retention; an analysts' feed token (one
// PostgreSQL's, or the sharded topology's with a position per partition) round-trips and is a mismatch in a
// rider's feed.
private let codec = SyncTokenCodec(secrets: SigningSecrets(current: Array("fuzz sync token secret".utf8)))
private let rider = RiderID(Int64(7))!
private let otherRider = RiderID(Int64(8))!
private let now = Date(timeIntervalSince1970: 1_790_000_000)
private let retention: TimeInterval = 30 * 86_400

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSyncToken(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    if let position = try? codec.decode(text, riderID: rider, now: now, retention: retention) {
        let again = codec.encode(position, riderID: rider, now: now)
        precondition(
            (try? codec.decode(again, riderID: rider, now: now, retention: retention)) == position,
            "a decoded token's position must round-trip")
    }
    if let position = try? codec.decodeAnalyst(text, now: now, retention: retention) {
        let again = codec.encode(position, now: now)
        precondition(
            (try? codec.decodeAnalyst(again, now: now, retention: retention)) == position,
            "a decoded analyst token's position must round-trip")
        precondition(
            (try? codec.decode(again, riderID: rider, now: now, retention: retention)) == nil,
            "an analyst token must not decode for a rider's feed")
    }
    if bytes.count >= 24 {
        func word(_ offset: Int) -> UInt64 {
            (offset..<offset + 8).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[$1]) }
        }
        let one = AnalystChangePosition(
            transaction: word(0), riderID: Int64(bitPattern: word(8)), sequence: Int64(bitPattern: word(16)))
        // One PostgreSQL's position, and the sharded topology's: 1 to 8 partitions, each the input's words shifted.
        let partitions = 1 + Int(bytes[0] % 8)
        let partitioned = (0..<partitions).map { index in
            AnalystChangePosition(
                transaction: one.transaction >> index, riderID: one.riderID >> index, sequence: one.sequence >> index)
        }
        for position in [
            AnalystFeedPosition.node(one), .partitioned(topology: word(8) ^ word(16), positions: partitioned),
        ] {
            let token = codec.encode(position, now: now)
            precondition(
                (try? codec.decodeAnalyst(token, now: now, retention: retention)) == position,
                "an analyst token must round-trip")
            do {
                _ = try codec.decode(token, riderID: rider, now: now, retention: retention)
                preconditionFailure("an analyst token must not decode for a rider's feed")
            } catch {
                precondition(error == .mismatch, "an analyst token in a rider's feed is a mismatch")
            }
        }
    }
    if bytes.count >= 8 {
        var sequence: UInt64 = 0
        for index in 0..<8 { sequence = sequence << 8 | UInt64(bytes[index]) }
        let position = ChangePosition(sequence: Int64(bitPattern: sequence))
        let token = codec.encode(position, riderID: rider, now: now)
        precondition(
            (try? codec.decode(token, riderID: rider, now: now, retention: retention)) == position,
            "a token must round-trip")
        do {
            _ = try codec.decode(token, riderID: otherRider, now: now, retention: retention)
            preconditionFailure("a token must not decode for another rider")
        } catch {
            precondition(error == .mismatch, "another rider's token is a mismatch")
        }
        let later = now.addingTimeInterval(retention + 2 * 3600)
        do {
            _ = try codec.decode(token, riderID: rider, now: later, retention: retention)
            preconditionFailure("a token must expire after the retention")
        } catch {
            precondition(error == .expired, "an old token is expired")
        }
    }
    return 0
}
