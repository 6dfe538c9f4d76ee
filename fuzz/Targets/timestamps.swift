import Foundation
import TripHistoryDomain

@testable import TripHistoryAPI

// libFuzzer target: the RFC 3339 timestamp and calendar date parsers, and the bound parser built on them
// (a date's start of day in a zone). What parses must format and parse back to the same instant.
private let zones = ["UTC", "Europe/Paris", "America/Sao_Paulo", "Pacific/Apia", "Asia/Tokyo"].compactMap {
    TimeZone(identifier: $0)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTimestamps(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let instant = RFC3339.parseTimestamp(text) {
        let formatted = RFC3339.format(instant)
        precondition(
            RFC3339.parseTimestamp(formatted).map(Timestamp.micros) == Timestamp.micros(instant),
            "a formatted timestamp must parse back to the same instant"
        )
    }
    if let date = RFC3339.parseDate(text) {
        for zone in zones { _ = RFC3339.startOfDay(date, in: zone) }
    }
    for zone in zones + [nil] {
        _ = try? TripListParameters.parseBound(Substring(text), name: "from", zone)
    }
    return 0
}
