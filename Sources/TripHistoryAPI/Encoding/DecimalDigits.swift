/// Integers written as decimal digits straight into a byte buffer, without building a String per number.
enum DecimalDigits {
    /// The most bytes `write(_:into:)` writes: a sign and 19 digits.
    static let maximumLength = 20

    static func append(_ value: Int64, to bytes: inout [UInt8]) {
        bytes.append(atMost: maximumLength) { write(value, into: $0) }
    }

    /// Writes `value` into `output`, which has room for `maximumLength` bytes, and returns how many bytes it
    /// wrote.
    static func write(_ value: Int64, into output: UnsafeMutablePointer<UInt8>) -> Int {
        var cursor = output
        if value < 0 {
            cursor.pointee = UInt8(ascii: "-")
            cursor += 1
        }
        let magnitude = value.magnitude
        var length = 1
        var bound: UInt64 = 10
        while length < 20, magnitude >= bound {
            length += 1
            bound = bound &* 10
        }
        write(magnitude, width: length, into: cursor)
        return output.distance(to: cursor) + length
    }

    /// Writes the last `width` decimal digits of `value` into `output`, padded with zeros on the left.
    static func write(_ value: UInt64, width: Int, into output: UnsafeMutablePointer<UInt8>) {
        var value = value
        for index in stride(from: width - 1, through: 0, by: -1) {
            output[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
            value /= 10
        }
    }
}

extension [UInt8] {
    /// Appends what `write` puts into scratch space of `maximumLength` bytes; `write` returns how many bytes
    /// it wrote. For the writers that serve both `JSONWriter`'s buffer and byte arrays.
    mutating func append(atMost maximumLength: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumLength) { scratch in
            let written = write(scratch.baseAddress!)
            append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<written]))
        }
    }
}
