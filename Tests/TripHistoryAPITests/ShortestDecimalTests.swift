import Testing

@testable import TripHistoryAPI

/// `ShortestDecimal` must write the very bytes of `Double.description`, whichever path it takes: responses and
/// exports kept their bytes (and so their entity tags) when coordinates stopped going through a String.
@Suite struct ShortestDecimalTests {
    private static func written(_ value: Double) -> String {
        var bytes: [UInt8] = []
        ShortestDecimal.append(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: [
        0.0, -0.0, 1.0, -1.0, 12.0, 180.0, -180.0, 90.0, 0.5, 0.1, 0.001, -0.001, 0.0009999, 0.0001, 0.00001,
        151.20732, -33.86882, 40.758, -73.9857, 2.3522219, 48.856614, 0.000001, 123456.789012,
        999_999_999.999999, 1_000_000_000.0, 1e15, 1e16, 1e17, 1e22, 123_456_789_012.0,
        .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, .ulpOfOne, .pi, -.pi,
        .infinity, -.infinity, .nan,
    ])
    func edgesMatchDescription(value: Double) {
        #expect(Self.written(value) == value.description)
    }

    /// Coordinates as the seeder and riders' apps store them: whole degrees and one to nine decimals.
    @Test func coordinatesMatchDescription() {
        var generator = Walk(state: 24)
        for _ in 0..<200_000 {
            let decimals = Int(generator.next() % 10)
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            let units = Double(Int64(bitPattern: generator.next()) % Int64(360 * scale))
            let value = (units / scale) / 2
            let mismatch = Self.written(value) != value.description
            #expect(!mismatch, "\(value.description) written as \(Self.written(value))")
            if mismatch { return }
        }
    }

    /// Any double, from its bits, and doubles spread over the magnitudes around the fast path's bounds.
    @Test func arbitraryDoublesMatchDescription() {
        var generator = Walk(state: 7)
        for round in 0..<200_000 {
            let value: Double
            if round.isMultiple(of: 2) {
                value = Double(bitPattern: generator.next())
            } else {
                let exponent = Double(Int(generator.next() % 30)) - 10
                let mantissa = Double(generator.next() % 1_000_000_000) / 1_000_000_000
                value = mantissa * pow10(exponent)
            }
            let mismatch = Self.written(value) != value.description
            #expect(!mismatch, "\(value.description) written as \(Self.written(value))")
            if mismatch { return }
        }
    }

    /// Knuth's MMIX linear congruential step, high bits first: the same cases on every run.
    private struct Walk {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    private func pow10(_ exponent: Double) -> Double {
        var result = 1.0
        let steps = Int(exponent.magnitude)
        for _ in 0..<steps { result = exponent < 0 ? result / 10 : result * 10 }
        return result
    }
}
