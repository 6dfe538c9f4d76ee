import Testing

@testable import TripHistoryAPI

/// The digit writer under every number the responses print (ids, amounts, years, times of day, fractions):
/// the same digits as `String`, zero-padded or cut to the width asked for.
@Suite struct DecimalDigitsTests {
    @Test func paddedDigitsMatchStringForEveryWidth() {
        var output = [UInt8](repeating: 0, count: 20)
        for value in 0..<UInt64(100_000) {
            let text = String(value)
            for width in 1...7 {
                output.withUnsafeMutableBufferPointer {
                    DecimalDigits.write(value, width: width, into: $0.baseAddress!)
                }
                let expected = String(repeating: "0", count: max(0, width - text.count)) + text.suffix(width)
                let written = String(decoding: output[..<width], as: UTF8.self)
                if written != expected {
                    Issue.record("\(value) at width \(width): \(written), expected \(expected)")
                    return
                }
            }
        }
    }

    @Test func integersMatchStringAroundEveryPowerOfTen() {
        var values: [Int64] = [0, .max, .min, .max - 1, .min + 1]
        var power: Int64 = 1
        for _ in 0..<19 {
            values += [power - 1, power, power + 1, -(power - 1), -power, -(power + 1)]
            if power <= .max / 10 { power *= 10 }
        }
        for value in values {
            var bytes: [UInt8] = []
            DecimalDigits.append(value, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == String(value))
        }
    }
}
