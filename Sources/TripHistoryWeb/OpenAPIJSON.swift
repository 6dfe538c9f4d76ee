import Yams

/// The served `openapi.yaml` as JSON text, for the API reference page, which reads it with `JSON.parse`
/// instead of shipping a YAML parser to the browser.
///
/// Mapping members keep the order they have in the YAML, so the page lists paths, operations and
/// properties in the order the document's authors chose. Plain scalars are typed by YAML's core schema
/// (null, booleans, integers, floats; anything else, timestamps included, stays a string), quoted scalars
/// are strings, as in any YAML reader.
enum OpenAPIJSON {
    /// Why the document could not be converted.
    struct ConversionError: Error, CustomStringConvertible {
        let description: String
    }

    /// The JSON text of the YAML document `yaml`; throws when it is not YAML, is empty, or has a mapping
    /// key that is not a string.
    static func convert(yaml: [UInt8]) throws -> [UInt8] {
        let text = String(decoding: yaml, as: UTF8.self)
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw ConversionError(description: "openapi.yaml is not valid YAML: \(error)")
        }
        guard let root else { throw ConversionError(description: "openapi.yaml is empty") }
        var out: [UInt8] = []
        out.reserveCapacity(yaml.count * 2)
        try write(root, to: &out)
        return out
    }

    private static func write(_ node: Node, to out: inout [UInt8]) throws {
        switch node {
        case .scalar(let scalar):
            writeScalar(node, text: scalar.string, to: &out)
        case .sequence(let sequence):
            out.append(UInt8(ascii: "["))
            for (index, item) in sequence.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                try write(item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .mapping(let mapping):
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in mapping.enumerated() {
                guard let name = key.string else {
                    throw ConversionError(description: "openapi.yaml has a mapping key that is not a string")
                }
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeString(name, to: &out)
                out.append(UInt8(ascii: ":"))
                try write(value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeScalar(_ node: Node, text: String, to out: inout [UInt8]) {
        // `Tag.name` is internal to Yams; its description is the resolved tag name.
        let literal: String? =
            switch Tag.Name(rawValue: node.tag.description) {
            case Tag.Name.null: "null"
            case Tag.Name.bool: node.bool.map { $0 ? "true" : "false" }
            case Tag.Name.int: node.int.map { String($0) }
            case Tag.Name.float: node.float.flatMap { $0.isFinite ? String($0) : nil }
            default: nil
            }
        if let literal {
            out.append(contentsOf: Array(literal.utf8))
        } else {
            writeString(text, to: &out)
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped, everything else as UTF-8.
    static func writeString(_ value: String, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case UInt8(ascii: "\n"):
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0..<0x20:
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0f)])
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
