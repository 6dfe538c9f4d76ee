import Logging

/// Builds one JSON object as UTF-8 bytes, escaping text as RFC 8259 requires and more: every control
/// character (C0, DEL) and the line and paragraph separators U+2028 and U+2029 as `\u` escapes, so a line
/// stays one line for any reader, including JavaScript's.
struct JSONLineWriter {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]
    private var first = true

    mutating func field(_ key: String, _ value: String) {
        name(key)
        string(value)
    }

    mutating func field(_ key: String, _ value: Logger.MetadataValue) {
        name(key)
        self.value(value)
    }

    /// The object closed and followed by a newline.
    mutating func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    private mutating func name(_ key: String) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func value(_ value: Logger.MetadataValue) {
        switch value {
        case .string(let text):
            string(text)
        case .stringConvertible(let convertible):
            string(convertible.description)
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                self.value(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .dictionary(let fields):
            bytes.append(UInt8(ascii: "{"))
            // Sorted, so the same metadata always makes the same line.
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                string(key)
                bytes.append(UInt8(ascii: ":"))
                self.value(fields[key]!)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": bytes.append(contentsOf: #"\""#.utf8)
            case "\\": bytes.append(contentsOf: #"\\"#.utf8)
            case "\n": bytes.append(contentsOf: #"\n"#.utf8)
            case "\r": bytes.append(contentsOf: #"\r"#.utf8)
            case "\t": bytes.append(contentsOf: #"\t"#.utf8)
            case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
                unicodeEscape(scalar.value)
            default:
                UTF8.encode(scalar) { bytes.append($0) }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func unicodeEscape(_ value: UInt32) {
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: #"\u"#.utf8)
        for shift in stride(from: 12, through: 0, by: -4) {
            bytes.append(hex[Int((value >> UInt32(shift)) & 0xF)])
        }
    }
}
