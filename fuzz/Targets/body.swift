import Foundation
import HTTPTypes
import TripHistoryDomain

@testable import TripHistoryAPI

// libFuzzer target: the body of POST /v1/trips, decoded (400 on a wrong shape) and validated into the
// domain's new trip (422 on a broken rule). Every input is accepted or refused with a problem.
private let decoder = JSONDecoder()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBody(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let trip = try NewTripBody.decode(bytes, decoder: decoder).newTrip()
        _ = trip.riderID
    } catch {
        precondition((400..<500).contains(error.status.code), "a refused body is a client error")
    }
    return 0
}
