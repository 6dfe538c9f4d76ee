/// Doubles written in the same bytes as `Double.description` (the shortest form that reads back as the same
/// value), straight into a byte buffer. A value with at most six decimals between 0.001 and a billion (every
/// coordinate the store holds) is written from its integer count of millionths; any other value goes through
/// `description`.
enum ShortestDecimal {
    /// The most bytes `write(_:into:)` writes: `description`'s longest form of a finite double is 24 bytes.
    static let maximumLength = 32

    static func append(_ value: Double, to bytes: inout [UInt8]) {
        bytes.append(atMost: maximumLength) { write(value, into: $0) }
    }

    /// Writes the finite `value` into `output`, which has room for `maximumLength` bytes, and returns how many
    /// bytes it wrote.
    static func write(_ value: Double, into output: UnsafeMutablePointer<UInt8>) -> Int {
        guard let millionths = exactMillionths(of: value) else {
            var text = value.description
            return text.withUTF8 { utf8 in
                output.update(from: utf8.baseAddress!, count: utf8.count)
                return utf8.count
            }
        }
        var cursor = output
        if value < 0 {
            cursor.pointee = UInt8(ascii: "-")
            cursor += 1
        }
        let whole = millionths / 1_000_000
        var fraction = millionths % 1_000_000
        cursor += DecimalDigits.write(Int64(whole), into: cursor)
        cursor.pointee = UInt8(ascii: ".")
        cursor += 1
        // `description` writes an integral value with ".0" and drops a fraction's trailing zeros.
        var width = 6
        while width > 1, fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        DecimalDigits.write(fraction, width: width, into: cursor)
        return output.distance(to: cursor) + width
    }

    /// `|value|` in millionths when that count is exact (it reads back as `value`) and `description` would
    /// write the value without an exponent; nil otherwise.
    ///
    /// Why the digits match: the count `m` divided by a million is the double nearest m / 10^6 (both are exact
    /// doubles and division rounds correctly), so its six decimals read back as `value`; and any other decimal
    /// with at most six decimals lies at least 10^-6 away, far beyond the spacing of doubles below a billion,
    /// so no shorter form reads back as `value`.
    @inline(__always)
    private static func exactMillionths(of value: Double) -> UInt64? {
        let magnitude = value.magnitude
        guard magnitude >= 0.001, magnitude < 1_000_000_000 else { return nil }
        let scaled = (magnitude * 1_000_000).rounded()
        guard scaled / 1_000_000 == magnitude else { return nil }
        return UInt64(scaled)
    }
}
