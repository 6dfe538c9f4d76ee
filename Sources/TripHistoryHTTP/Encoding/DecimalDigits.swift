/// Integers written as decimal digits straight into a byte buffer, without building a String per number.
enum DecimalDigits {
    /// The most bytes `write(_:into:)` writes: a sign and 19 digits.
    static let maximumLength = 20

    static func append(_ value: Int64, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumLength) { scratch in
            let written = write(value, into: scratch.baseAddress!)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<written]))
        }
    }

    /// Writes `value` into `output`, which has room for `maximumLength` bytes, and returns how many bytes it
    /// wrote.
    static func write(_ value: Int64, into output: UnsafeMutablePointer<UInt8>) -> Int {
        var cursor = output
        if value < 0 {
            cursor.pointee = UInt8(ascii: "-")
            cursor += 1
        }
        var magnitude = value.magnitude
        var length = 1
        var bound: UInt64 = 10
        while length < 20, magnitude >= bound {
            length += 1
            bound = bound &* 10
        }
        for index in stride(from: length - 1, through: 0, by: -1) {
            cursor[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        }
        return output.distance(to: cursor) + length
    }
}
