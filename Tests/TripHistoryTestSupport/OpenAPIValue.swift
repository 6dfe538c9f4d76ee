public import Foundation
import Yams

/// A JSON value, read either from the OpenAPI document (YAML) or from a response body (JSON), so that both
/// sides of a conformance check are compared in one model. Integers and other numbers are kept apart because
/// JSON Schema's `integer` type depends on it; booleans are never numbers.
public enum OpenAPIValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([OpenAPIValue])
    case object([String: OpenAPIValue])

    /// The member `key` of an object; nil for anything else or a missing member.
    public subscript(_ key: String) -> OpenAPIValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    public var stringValue: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    public var objectValue: [String: OpenAPIValue]? {
        guard case .object(let members) = self else { return nil }
        return members
    }

    public var arrayValue: [OpenAPIValue]? {
        guard case .array(let items) = self else { return nil }
        return items
    }

    public var boolValue: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    /// The numeric value of an integer or other number.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    /// Equality as JSON Schema's `enum` and `const` define it: `1` and `1.0` are the same number.
    public func jsonEquals(_ other: OpenAPIValue) -> Bool {
        switch (self, other) {
        case (.integer, .number), (.number, .integer):
            return doubleValue == other.doubleValue
        case (.array(let lhs), .array(let rhs)):
            return lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0.jsonEquals($1) }
        case (.object(let lhs), .object(let rhs)):
            return lhs.count == rhs.count
                && lhs.allSatisfy { key, value in rhs[key].map { value.jsonEquals($0) } ?? false }
        default:
            return self == other
        }
    }

    /// A short rendering for violation messages.
    public var summary: String {
        switch self {
        case .null: "null"
        case .bool(let value): String(value)
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .string(let value): "\"\(value.count > 60 ? String(value.prefix(60)) + "…" : value)\""
        case .array(let items): "array(\(items.count))"
        case .object(let members): "object{\(members.keys.sorted().joined(separator: ","))}"
        }
    }

    /// The JSON type names this value has; an integer is also a `number`.
    var jsonTypes: Set<String> {
        switch self {
        case .null: ["null"]
        case .bool: ["boolean"]
        case .integer: ["integer", "number"]
        case .number(let value): value.rounded() == value && abs(value) < 9.0e15 ? ["integer", "number"] : ["number"]
        case .string: ["string"]
        case .array: ["array"]
        case .object: ["object"]
        }
    }
}

extension OpenAPIValue: Decodable {
    /// Decodes any JSON text. Booleans are tried before numbers because JSONDecoder refuses to read a number
    /// as a Bool and a Bool as a number, which keeps the two apart on every platform.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([OpenAPIValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: OpenAPIValue].self))
        }
    }

    /// Parses a JSON document.
    public static func parseJSON(_ data: Data) throws -> OpenAPIValue {
        try JSONDecoder().decode(OpenAPIValue.self, from: data)
    }
}

extension OpenAPIValue {
    /// Errors reading the YAML document.
    public struct YAMLError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Parses a YAML document with YAML 1.1 tag resolution (as libyaml-based tools read it); timestamps and
    /// other non-JSON scalars stay strings.
    public static func parseYAML(_ text: String) throws -> OpenAPIValue {
        guard let node = try Yams.compose(yaml: text) else {
            throw YAMLError(description: "the YAML document is empty")
        }
        return try OpenAPIValue(yaml: node)
    }

    private init(yaml node: Node) throws {
        switch node {
        case .scalar(let scalar):
            // `Tag.name` is internal to Yams; its description is the resolved tag name.
            switch Tag.Name(rawValue: node.tag.description) {
            case Tag.Name.null: self = .null
            case Tag.Name.bool: self = node.bool.map(OpenAPIValue.bool) ?? .string(scalar.string)
            case Tag.Name.int: self = node.int.map { .integer(Int64($0)) } ?? .string(scalar.string)
            case Tag.Name.float: self = node.float.map(OpenAPIValue.number) ?? .string(scalar.string)
            default: self = .string(scalar.string)
            }
        case .sequence(let sequence):
            self = .array(try sequence.map { try OpenAPIValue(yaml: $0) })
        case .mapping(let mapping):
            var members: [String: OpenAPIValue] = [:]
            for (key, value) in mapping {
                guard let name = key.string else {
                    throw YAMLError(
                        description: "a mapping key is not a string at \(key.mark.map(String.init(describing:)) ?? "?")"
                    )
                }
                guard members[name] == nil else { throw YAMLError(description: "duplicate key \(name)") }
                members[name] = try OpenAPIValue(yaml: value)
            }
            self = .object(members)
        }
    }
}
