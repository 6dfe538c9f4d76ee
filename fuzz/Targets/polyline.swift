import Foundation
import TripHistoryDomain

// libFuzzer target: the polyline decoder of recorded routes. Any text must decode or be refused without
// trapping; the points of a polyline that decodes are on the globe, and encoding them gives a polyline that
// decodes to the same points.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPolyline(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let points = try? EncodedRoute.decode(text) else { return 0 }
    precondition(points.count <= EncodedRoute.pointCount.upperBound, "a decoded route must stay within its bound")
    for point in points {
        precondition(abs(point.latitude) <= 90 && abs(point.longitude) <= 180, "a point must be on the globe")
    }
    let encoded = EncodedRoute.encode(points.map { ($0.latitude, $0.longitude) })
    precondition((try? EncodedRoute.decode(encoded)) == points, "re-encoded points must decode to themselves")
    if let route = try? EncodedRoute.validated(text) {
        precondition(route.points == points, "a validated route must keep its points")
    }
    return 0
}
