import Foundation
import TripHistoryDomain

@testable import TripHistoryAPI

// libFuzzer target: the scopes analyst cursors are bound to. Two analyst filters cut from the input (city and
// product each absent, empty or any text) must get different scopes whenever they differ, so a cursor of one
// query never pages another, whatever separators or lengths their texts hold; and no analyst scope is a
// rider's.
private let codec = CursorCodec(secret: Array("fuzz scope secret".utf8))
private let range = try! DateRange(
    from: Date(timeIntervalSince1970: 1_700_000_000), to: Date(timeIntervalSince1970: 1_700_086_400))
private let riderScope = CursorScope(riderID: RiderID(7)!, filter: TripFilter(range: range, status: nil))
private let position = PagePosition(
    key: TripKey(requestedAtMicros: 1_700_000_000_000_000, id: TripID(1)!), direction: .older)

/// The filter of two optional texts: a part that is missing is nil, so "no city" and "the empty city" differ.
private func filter(city: String?, product: String?, rider: UInt8) -> AnalystTripFilter {
    try! AnalystTripFilter(
        range: range, status: rider & 2 == 0 ? nil : .completed, city: city, product: product,
        riderID: rider & 1 == 0 ? nil : RiderID(Int64(rider) + 1))
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScope(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    // Two flag bytes, then up to four texts separated by 0xFF bytes (never in UTF-8).
    let parts = bytes[2...].split(separator: 0xFF, omittingEmptySubsequences: false)
    func text(_ index: Int) -> String? {
        index < parts.count ? String(decoding: parts[index], as: UTF8.self) : nil
    }
    let first = filter(city: text(0), product: text(1), rider: bytes[0])
    let second = filter(city: text(2), product: text(3), rider: bytes[1])
    let firstScope = CursorScope(analystFilter: first)
    let secondScope = CursorScope(analystFilter: second)
    precondition(firstScope != riderScope && secondScope != riderScope, "an analyst scope must not be a rider's")
    precondition((first == second) == (firstScope == secondScope), "scopes must differ exactly when filters do")
    let cursor = codec.encode(position, scope: firstScope)
    precondition((try? codec.decode(cursor, scope: firstScope)) == position, "a cursor must decode in its scope")
    if first != second {
        precondition((try? codec.decode(cursor, scope: secondScope)) == nil, "a cursor must not page another query")
    }
    return 0
}
