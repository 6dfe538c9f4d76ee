import Foundation
import TripHistoryDomain

@testable import TripHistoryAPI

// libFuzzer target: query strings as clients send them, decoded (`+`, percent-escapes, UTF-8) and parsed
// into the rider list's and the analysts' parameters. Every input is accepted or refused with a problem.
private let limits = AnalystQueryLimits()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQuery(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let query = try? QueryParameters(target: "/v1/trips?" + text) else { return 0 }
    for (name, value) in query {
        precondition(query[String(name)] != nil, "a decoded name must be found again")
        _ = value.utf8.count
    }
    _ = try? TripListParameters.parse(query)
    _ = try? AnalystListParameters.parse(query, limits: limits)
    _ = try? AnalystStatsParameters.parse(query, limits: limits)
    return 0
}
