/// A trip's route as an encoded polyline (Google's algorithm at precision 5: coordinates in 1e-5 degrees,
/// each a zig-zag varint of the difference to the previous point, in base64-like characters 63...126).
/// Build it through `validated(_:)`, which decodes the text once to prove it is well-formed.
public struct EncodedRoute: Hashable, Sendable {
    public let polyline: String

    private init(polyline: String) {
        self.polyline = polyline
    }

    /// Longest accepted polyline, in bytes: a few thousand points, far more than a ride needs.
    public static let maximumBytes = 16_384
    /// Fewest and most points a route may have.
    public static let pointCount = 2...5_000

    /// Why a polyline was refused.
    public enum Failure: Error, Hashable, Sendable {
        case tooLong
        case malformed
        case pointCount
        case outOfRange
    }

    /// A point of a decoded route, in degrees.
    public struct Point: Hashable, Sendable {
        public let latitude: Double
        public let longitude: Double
    }

    /// The route for `polyline` once it decodes to an accepted number of valid coordinates.
    public static func validated(_ polyline: String) throws(Failure) -> EncodedRoute {
        guard polyline.utf8.count <= maximumBytes else { throw .tooLong }
        let points = try decode(polyline)
        guard pointCount.contains(points.count) else { throw .pointCount }
        return EncodedRoute(polyline: polyline)
    }

    /// A polyline the store returned, which was validated when it was recorded.
    public init(stored polyline: String) {
        self.polyline = polyline
    }

    /// The points of this route.
    public var points: [Point] { (try? Self.decode(polyline)) ?? [] }

    /// Decodes a polyline into points; refuses characters outside 63...126, a value cut off at the end, a
    /// value wider than 32 bits, a dangling latitude and any coordinate outside the globe.
    public static func decode(_ polyline: String) throws(Failure) -> [Point] {
        var points: [Point] = []
        var latitude: Int64 = 0
        var longitude: Int64 = 0
        var iterator = polyline.utf8.makeIterator()
        func next(_ iterator: inout String.UTF8View.Iterator) throws(Failure) -> Int64? {
            var result: Int64 = 0
            var shift: Int64 = 0
            var started = false
            while let byte = iterator.next() {
                guard byte >= 63, byte <= 126 else { throw .malformed }
                started = true
                let chunk = Int64(byte) - 63
                result |= (chunk & 0x1F) << shift
                shift += 5
                if chunk < 0x20 {
                    return (result & 1) != 0 ? ~(result >> 1) : result >> 1
                }
                guard shift < 35 else { throw .malformed }
            }
            if started { throw .malformed }
            return nil
        }
        while let deltaLatitude = try next(&iterator) {
            guard let deltaLongitude = try next(&iterator) else { throw .malformed }
            latitude += deltaLatitude
            longitude += deltaLongitude
            guard abs(latitude) <= 9_000_000, abs(longitude) <= 18_000_000 else { throw .outOfRange }
            guard points.count < pointCount.upperBound else { throw .pointCount }
            points.append(Point(latitude: Double(latitude) / 1e5, longitude: Double(longitude) / 1e5))
        }
        return points
    }

    /// The polyline of `points`, rounding each coordinate to 1e-5 degrees.
    public static func encode(_ points: [(latitude: Double, longitude: Double)]) -> String {
        var output: [UInt8] = []
        var previous: (Int64, Int64) = (0, 0)
        func append(_ value: Int64) {
            var bits = value < 0 ? ~(value << 1) : value << 1
            while bits >= 0x20 {
                output.append(UInt8((0x20 | (bits & 0x1F)) + 63))
                bits >>= 5
            }
            output.append(UInt8(bits + 63))
        }
        for point in points {
            let current = (Int64((point.latitude * 1e5).rounded()), Int64((point.longitude * 1e5).rounded()))
            append(current.0 - previous.0)
            append(current.1 - previous.1)
            previous = current
        }
        return String(decoding: output, as: UTF8.self)
    }
}
