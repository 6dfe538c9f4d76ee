import Foundation
import NIOCore

/// Appends JSON straight into a byte buffer. Responses are written by hand rather than through `Encodable`
/// so that their exact shape (snake_case, ids as strings, RFC 3339 times, nulls kept) is visible in one place
/// and no encoder or intermediate dictionaries are built per request.
///
/// The writer owns its buffer (it is not copyable), so an append is a capacity check and a store: a page of
/// trips is about ten thousand appends, which through `[UInt8]` cost a uniqueness check each and made up
/// most of the writing time.
struct JSONWriter: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written so far.
    private(set) var byteCount = 0
    /// Whether the next value or key needs a comma before it.
    private var needsComma = false

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        start = .allocate(capacity: self.capacity)
    }

    deinit {
        start.deallocate()
    }

    /// A copy of what was written.
    var bytes: [UInt8] {
        Array(written)
    }

    /// What was written, copied once into a buffer a response can send.
    var byteBuffer: ByteBuffer {
        ByteBuffer(bytes: written)
    }

    private var written: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: start, count: byteCount)
    }

    /// Ends a line of newline-delimited JSON; the next value starts a new top-level document.
    mutating func endLine() {
        put(UInt8(ascii: "\n"))
        needsComma = false
    }

    /// Empties the buffer, keeping its capacity, to write the next chunk of a stream.
    mutating func clear() {
        byteCount = 0
        needsComma = false
    }

    mutating func beginObject() {
        separate()
        put(UInt8(ascii: "{"))
        needsComma = false
    }

    mutating func endObject() {
        put(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func beginArray() {
        separate()
        put(UInt8(ascii: "["))
        needsComma = false
    }

    mutating func endArray() {
        put(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes an object key; keys are compile-time constants, so they need no escaping.
    mutating func key(_ key: StaticString) {
        let length = key.utf8CodeUnitCount
        reserve(length + 4)
        if needsComma { putReserved(UInt8(ascii: ",")) }
        putReserved(UInt8(ascii: "\""))
        (start + byteCount).update(from: key.utf8Start, count: length)
        byteCount += length
        putReserved(UInt8(ascii: "\""))
        putReserved(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes an object key known only at run time (e.g. a currency code), escaped like any string.
    mutating func key(_ key: String) {
        string(key)
        put(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func string(_ value: String) {
        separate()
        var value = value
        value.withUTF8 { appendEscaped($0) }
        needsComma = true
    }

    /// An integer written as a JSON string (ids: JavaScript numbers cannot hold every 64-bit value).
    mutating func quotedInt(_ value: Int64) {
        scalar(atMost: DecimalDigits.maximumLength, quoted: true) { DecimalDigits.write(value, into: $0) }
    }

    /// Writes the decimal digits straight into the buffer; no String is built per number.
    mutating func int(_ value: some BinaryInteger) {
        scalar(atMost: DecimalDigits.maximumLength, quoted: false) { DecimalDigits.write(Int64(value), into: $0) }
    }

    /// Writes an RFC 3339 UTC timestamp as a JSON string.
    mutating func timestamp(_ date: Date) {
        scalar(atMost: RFC3339.maximumLength, quoted: true) { RFC3339.write(date, into: $0) }
    }

    /// Writes a finite double in its shortest round-tripping form (coordinates, which are always finite).
    mutating func double(_ value: Double) {
        guard value.isFinite else { return null() }
        scalar(atMost: ShortestDecimal.maximumLength, quoted: false) { ShortestDecimal.write(value, into: $0) }
    }

    mutating func bool(_ value: Bool) {
        separate()
        put(value ? "true" : "false")
        needsComma = true
    }

    mutating func null() {
        separate()
        put("null")
        needsComma = true
    }

    mutating func field(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    mutating func field(_ name: StaticString, _ value: String?) {
        key(name)
        if let value { string(value) } else { null() }
    }

    mutating func field(_ name: StaticString, _ value: Int64) {
        key(name)
        int(value)
    }

    mutating func field(_ name: StaticString, _ value: Int) {
        key(name)
        int(value)
    }

    mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }

    /// Writes a value that `write` puts straight into the buffer (at most `maximumLength` bytes; it returns
    /// how many), in quotes when `quoted`.
    @inline(__always)
    private mutating func scalar(
        atMost maximumLength: Int, quoted: Bool, _ write: (UnsafeMutablePointer<UInt8>) -> Int
    ) {
        reserve(maximumLength + 3)
        if needsComma { putReserved(UInt8(ascii: ",")) }
        if quoted { putReserved(UInt8(ascii: "\"")) }
        byteCount += write(start + byteCount)
        if quoted { putReserved(UInt8(ascii: "\"")) }
        needsComma = true
    }

    @inline(__always)
    private mutating func separate() {
        if needsComma { put(UInt8(ascii: ",")) }
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if byteCount + extra > capacity { grow(toHold: extra) }
    }

    /// Moves the bytes to a buffer twice as large, or larger if `extra` more bytes need it.
    @inline(never)
    private mutating func grow(toHold extra: Int) {
        let newCapacity = max(byteCount + extra, capacity * 2)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.moveInitialize(from: start, count: byteCount)
        start.deallocate()
        start = grown
        capacity = newCapacity
    }

    /// Appends a byte that `reserve` already made room for.
    @inline(__always)
    private mutating func putReserved(_ byte: UInt8) {
        start[byteCount] = byte
        byteCount += 1
    }

    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        reserve(1)
        putReserved(byte)
    }

    @inline(__always)
    private mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (start + byteCount).update(from: base, count: bytes.count)
        byteCount += bytes.count
    }

    private mutating func put(_ text: String) {
        var text = text
        text.withUTF8 { put($0) }
    }

    /// Writes `utf8` as a JSON string. Quote, backslash and control characters are escaped, and so are the
    /// line terminators outside ASCII (U+0085, U+2028, U+2029): JSON allows them raw, but JavaScript before
    /// ES2019 does not in string literals and some line-oriented readers of NDJSON split on them. Everything
    /// else, UTF-8 included, passes. Eight bytes at a time are checked for any of those (most strings have
    /// none).
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        put(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        let raw = UnsafeRawBufferPointer(utf8)
        while index < utf8.count {
            if index + 8 <= utf8.count, !Self.mayNeedEscaping(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            {
                index += 8
                continue
            }
            let byte = utf8[index]
            if byte >= 0x80 {
                guard let (escape, length) = Self.lineTerminatorEscape(utf8, at: index) else {
                    index += 1
                    continue
                }
                put(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                put(escape)
                index += length
                runStart = index
                continue
            }
            guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 else {
                index += 1
                continue
            }
            put(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            put(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): put(byte)
            case UInt8(ascii: "\n"): put(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): put(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): put(UInt8(ascii: "t"))
            default:
                let hex: StaticString = "0123456789abcdef"
                put("u00")
                put(hex.utf8Start[Int(byte >> 4)])
                put(hex.utf8Start[Int(byte & 0xF)])
            }
            index += 1
            runStart = index
        }
        put(UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        put(UInt8(ascii: "\""))
    }

    /// The escape of the non-ASCII line terminator starting at `index` (U+0085 is `C2 85`, U+2028 and U+2029
    /// are `E2 80 A8` and `E2 80 A9`) and its length in bytes, or nil when another character starts there.
    @inline(__always)
    private static func lineTerminatorEscape(
        _ utf8: UnsafeBufferPointer<UInt8>, at index: Int
    ) -> (escape: String, length: Int)? {
        switch utf8[index] {
        case 0xC2 where index + 1 < utf8.count && utf8[index + 1] == 0x85:
            return ("\\u0085", 2)
        case 0xE2 where index + 2 < utf8.count && utf8[index + 1] == 0x80 && utf8[index + 2] == 0xA8:
            return ("\\u2028", 3)
        case 0xE2 where index + 2 < utf8.count && utf8[index + 1] == 0x80 && utf8[index + 2] == 0xA9:
            return ("\\u2029", 3)
        default:
            return nil
        }
    }

    /// Whether any of the eight bytes in `word` is a quote, a backslash or below 0x20, or, only when the word
    /// has a byte at or above 0x80, `C2` or `E2` (the lead bytes of U+0085, U+2028 and U+2029). Exact, by the
    /// "has a zero byte" and "has a byte less than n" word tricks: another byte at or above 0x80 never counts.
    private static func mayNeedEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highBits != 0 }
        let belowSpace = (word &- ones &* 0x20) & ~word & highBits != 0
        if belowSpace || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C)) { return true }
        return word & highBits != 0 && (hasZeroByte(word ^ (ones &* 0xC2)) || hasZeroByte(word ^ (ones &* 0xE2)))
    }
}
