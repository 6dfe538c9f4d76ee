/// Reads the JSON that this service's own statements return for a receipt's fare breakdown and a trip's
/// ledger: an array of flat objects whose members are strings, integers or null, with any whitespace between
/// tokens (PostgreSQL's `jsonb` and `json` print it differently). Every detail read decodes one or two of
/// these; a reader of just this shape costs a small fraction of `JSONDecoder`.
enum StoredJSON {
    enum Value: Equatable, Sendable {
        case string(String)
        case integer(Int64)
        case null
    }

    /// One object's members, in their order.
    struct Object: Sendable {
        let members: [(name: String, value: Value)]

        func string(_ name: String) -> String? {
            guard case .string(let value)? = self[name] else { return nil }
            return value
        }

        func integer(_ name: String) -> Int64? {
            guard case .integer(let value)? = self[name] else { return nil }
            return value
        }

        subscript(name: String) -> Value? {
            members.first { $0.name == name }?.value
        }
    }

    /// The objects of `text`, or nil when it is not an array of flat objects of strings, integers and nulls.
    static func objects(_ text: String) -> [Object]? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = Reader(bytes: bytes)
            return reader.array()
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        mutating func array() -> [Object]? {
            guard take(UInt8(ascii: "[")) else { return nil }
            var objects: [Object] = []
            if take(UInt8(ascii: "]")) { return atEnd() ? objects : nil }
            repeat {
                guard let object = object() else { return nil }
                objects.append(object)
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "]")), atEnd() else { return nil }
            return objects
        }

        private mutating func object() -> Object? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var members: [(name: String, value: Value)] = []
            if take(UInt8(ascii: "}")) { return Object(members: members) }
            repeat {
                skipWhitespace()
                guard let name = string(), take(UInt8(ascii: ":")), let value = value() else { return nil }
                members.append((name, value))
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
            return Object(members: members)
        }

        private mutating func value() -> Value? {
            skipWhitespace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return integer().map(Value.integer)
            }
        }

        private mutating func literal(_ word: StaticString) -> Bool {
            let length = word.utf8CodeUnitCount
            guard index + length <= bytes.count else { return false }
            for offset in 0..<length where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += length
            return true
        }

        /// An integer without fraction or exponent that fits in 64 bits.
        private mutating func integer() -> Int64? {
            let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            let first = index
            var magnitude: UInt64 = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, carry) = times10.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
                guard !overflow, !carry else { return nil }
                magnitude = sum
                index += 1
            }
            guard index > first else { return nil }
            if negative {
                guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
                return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
            }
            return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
        }

        /// A string at the current position (its opening quote), unescaped.
        private mutating func string() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                index += 1
            }
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "\"") {
                defer { index += 1 }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            }
            var unescaped = Array(bytes[start..<index])
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: unescaped, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped.append(escape)
                    case UInt8(ascii: "b"): unescaped.append(0x08)
                    case UInt8(ascii: "f"): unescaped.append(0x0C)
                    case UInt8(ascii: "n"): unescaped.append(0x0A)
                    case UInt8(ascii: "r"): unescaped.append(0x0D)
                    case UInt8(ascii: "t"): unescaped.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let scalar = unicodeEscape() else { return nil }
                        unescaped.append(contentsOf: String(Character(scalar)).utf8)
                    default: return nil
                    }
                default:
                    unescaped.append(byte)
                }
            }
            return nil
        }

        /// The scalar of a `\u` escape whose `\u` was read, joining a surrogate pair.
        private mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let high = hex4() else { return nil }
            guard (0xD800...0xDBFF).contains(high) else { return Unicode.Scalar(high) }
            guard literal("\\u"), let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        }

        private mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let digit = Character(Unicode.Scalar(bytes[index])).hexDigitValue else { return nil }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func atEnd() -> Bool {
            skipWhitespace()
            return index == bytes.count
        }

        private mutating func skipWhitespace() {
            while index < bytes.count,
                bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09
            {
                index += 1
            }
        }
    }
}
