import Foundation
import TripHistoryDomain

@testable import TripHistoryAPI

// libFuzzer target: the cursor decoder. Any string must decode or be refused without trapping; a cursor that
// decodes re-encodes to itself (one encoding per position); and a position built from the input round-trips.
private let codec = CursorCodec(secret: Array("fuzz cursor secret".utf8))
private let scope = CursorScope(riderID: RiderID(7)!, filter: .all)
private let otherScope = CursorScope(riderID: RiderID(8)!, filter: .all)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCursor(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    if let position = try? codec.decode(text, scope: scope) {
        precondition(codec.encode(position, scope: scope) == text, "a decoded cursor must re-encode to itself")
    }
    _ = Base64URL.decode(text).map(Base64URL.encode)
    if bytes.count >= 17 {
        var micros: UInt64 = 0
        var id: UInt64 = 0
        for index in 0..<8 {
            micros = micros << 8 | UInt64(bytes[index])
            id = id << 8 | UInt64(bytes[8 + index])
        }
        if let tripID = TripID(Int64(bitPattern: id)) {
            let position = PagePosition(
                key: TripKey(requestedAtMicros: Int64(bitPattern: micros), id: tripID),
                direction: bytes[16] & 1 == 0 ? .older : .newer
            )
            let cursor = codec.encode(position, scope: scope)
            precondition((try? codec.decode(cursor, scope: scope)) == position, "a cursor must round-trip")
            do {
                _ = try codec.decode(cursor, scope: otherScope)
                preconditionFailure("a cursor must not decode in another scope")
            } catch {
                precondition(error == .mismatch, "a cursor of another scope is a mismatch")
            }
        }
    }
    return 0
}
