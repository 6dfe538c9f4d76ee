import Foundation

/// A JSON Schema (2020-12 subset) checker, enough for this service's OpenAPI document: `$ref` to local
/// components, `type` (one or a list, `null` included), `enum`, `const`, `properties`, `required`,
/// `additionalProperties`, `items`, `minimum`/`maximum`, `minLength`/`maxLength`, `pattern`, `allOf`,
/// `anyOf`, `oneOf`, `if`/`then`/`else`, and `format: date-time`.
///
/// A schema that uses any other assertion keyword is itself reported as a violation, so the checker can never
/// silently pass a value it did not really check.
///
/// The document is open for clients (response objects admit members they do not list, and some enums admit
/// values added later), but the service itself must send only what it documents. So by default the checker
/// reads the document in a closed world, the service's own: an object schema (`type: object` with
/// `properties`) that says nothing of `additionalProperties` refuses members it does not list, and an open
/// enum (an `anyOf` with a bare `type: string` beside the known values, swift-openapi-generator's pattern)
/// admits only the known values. `closedWorld: false` reads the document as a client may.
public struct OpenAPISchemaChecker: Sendable {
    /// The whole document, which `$ref`s point into.
    public let root: OpenAPIValue
    /// Whether undocumented members and values of open enums are refused (the service's view) or admitted
    /// as the document allows (a client's view).
    public let closedWorld: Bool

    public init(root: OpenAPIValue, closedWorld: Bool = true) {
        self.root = root
        self.closedWorld = closedWorld
    }

    /// Keywords that only annotate; they assert nothing.
    private static let annotations: Set<String> = [
        "description", "summary", "title", "example", "examples", "default", "deprecated", "readOnly", "writeOnly",
        "$comment", "format",
    ]

    private static let assertions: Set<String> = [
        "$ref", "type", "enum", "const", "properties", "required", "additionalProperties", "items", "minimum",
        "maximum", "minLength", "maxLength", "pattern", "allOf", "anyOf", "oneOf", "if", "then", "else",
    ]

    /// The violations of `value` against `schema`, each prefixed by the JSON path of the offending member
    /// (`$` is the whole value). Empty when the value conforms.
    public func violations(of value: OpenAPIValue, against schema: OpenAPIValue, at path: String = "$") -> [String] {
        var found: [String] = []
        check(value, schema, path, &found, depth: 0)
        return found
    }

    /// The schema a local reference such as `#/components/schemas/Trip` names.
    public func resolve(reference: String) -> OpenAPIValue? {
        guard reference.hasPrefix("#/") else { return nil }
        var node: OpenAPIValue? = root
        for part in reference.dropFirst(2).split(separator: "/") {
            let name = part.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            node = node?[name]
        }
        return node
    }

    private func check(
        _ value: OpenAPIValue, _ schema: OpenAPIValue, _ path: String, _ found: inout [String], depth: Int
    ) {
        guard depth < 64 else {
            found.append("\(path): schema nesting too deep (a $ref cycle?)")
            return
        }
        if case .bool(let accepts) = schema {
            if !accepts { found.append("\(path): no value is allowed here") }
            return
        }
        guard let keywords = schema.objectValue else {
            found.append("\(path): the schema is not an object")
            return
        }
        // `x-` keywords are OpenAPI's extensions, annotations that constrain nothing.
        for keyword in keywords.keys.sorted()
        where !Self.annotations.contains(keyword) && !Self.assertions.contains(keyword) && !keyword.hasPrefix("x-") {
            found.append("\(path): the checker does not support schema keyword '\(keyword)'")
        }

        if let reference = keywords["$ref"]?.stringValue {
            if let target = resolve(reference: reference) {
                check(value, target, path, &found, depth: depth + 1)
            } else {
                found.append("\(path): unresolvable $ref \(reference)")
            }
        }
        checkType(value, keywords, path, &found)
        if let options = keywords["enum"]?.arrayValue, !options.contains(where: { $0.jsonEquals(value) }) {
            found.append("\(path): \(value.summary) is not one of \(options.map(\.summary).joined(separator: ", "))")
        }
        if let constant = keywords["const"], !constant.jsonEquals(value) {
            found.append("\(path): \(value.summary) is not \(constant.summary)")
        }
        checkNumber(value, keywords, path, &found)
        checkString(value, keywords, path, &found)
        checkObject(value, keywords, path, &found, depth: depth)
        if case .array(let items) = value, let itemSchema = keywords["items"] {
            for (index, item) in items.enumerated() {
                check(item, itemSchema, "\(path)[\(index)]", &found, depth: depth + 1)
            }
        }
        checkCombinators(value, keywords, path, &found, depth: depth)
    }

    private func checkType(
        _ value: OpenAPIValue, _ keywords: [String: OpenAPIValue], _ path: String, _ found: inout [String]
    ) {
        let allowed: [String]
        switch keywords["type"] {
        case .string(let name): allowed = [name]
        case .array(let names): allowed = names.compactMap(\.stringValue)
        default: return
        }
        if value.jsonTypes.isDisjoint(with: allowed) {
            found.append("\(path): \(value.summary) is not of type \(allowed.joined(separator: " or "))")
        }
    }

    private func checkNumber(
        _ value: OpenAPIValue, _ keywords: [String: OpenAPIValue], _ path: String, _ found: inout [String]
    ) {
        guard let number = value.doubleValue, value.boolValue == nil else { return }
        if let minimum = keywords["minimum"]?.doubleValue, number < minimum {
            found.append("\(path): \(value.summary) is below the minimum \(minimum)")
        }
        if let maximum = keywords["maximum"]?.doubleValue, number > maximum {
            found.append("\(path): \(value.summary) is above the maximum \(maximum)")
        }
    }

    private func checkString(
        _ value: OpenAPIValue, _ keywords: [String: OpenAPIValue], _ path: String, _ found: inout [String]
    ) {
        guard case .string(let text) = value else { return }
        let length = text.unicodeScalars.count
        if let minimum = keywords["minLength"]?.doubleValue, Double(length) < minimum {
            found.append("\(path): \(value.summary) is shorter than \(Int(minimum))")
        }
        if let maximum = keywords["maxLength"]?.doubleValue, Double(length) > maximum {
            found.append("\(path): \(value.summary) is longer than \(Int(maximum))")
        }
        if let pattern = keywords["pattern"]?.stringValue {
            switch Self.matches(text, pattern: pattern) {
            case .some(true): break
            case .some(false): found.append("\(path): \(value.summary) does not match \(pattern)")
            case nil: found.append("\(path): the pattern \(pattern) is not a valid regular expression")
            }
        }
        if keywords["format"]?.stringValue == "date-time", Self.matches(text, pattern: Self.dateTimePattern) != true {
            found.append("\(path): \(value.summary) is not an RFC 3339 date-time")
        }
    }

    private func checkObject(
        _ value: OpenAPIValue, _ keywords: [String: OpenAPIValue], _ path: String, _ found: inout [String], depth: Int
    ) {
        guard case .object(let members) = value else { return }
        for name in keywords["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where members[name] == nil {
            found.append("\(path): the required member '\(name)' is missing")
        }
        let properties = keywords["properties"]?.objectValue ?? [:]
        let closed = closedWorld && keywords["properties"] != nil && Self.declaresObject(keywords)
        for (name, member) in members.sorted(by: { $0.key < $1.key }) {
            if let propertySchema = properties[name] {
                check(member, propertySchema, "\(path).\(name)", &found, depth: depth + 1)
            } else if let additional = keywords["additionalProperties"] {
                if additional == .bool(false) {
                    found.append("\(path): the member '\(name)' is not documented (additionalProperties: false)")
                } else {
                    check(member, additional, "\(path).\(name)", &found, depth: depth + 1)
                }
            } else if closed {
                found.append("\(path): the member '\(name)' is not documented (the service sends only listed members)")
            }
        }
    }

    /// Whether the schema's `type` is `object` or a list holding it.
    private static func declaresObject(_ keywords: [String: OpenAPIValue]) -> Bool {
        switch keywords["type"] {
        case .string(let name): name == "object"
        case .array(let names): names.contains(.string("object"))
        default: false
        }
    }

    /// Whether `schema` is the catch-all branch of an open enum: `type: string` and nothing else that asserts.
    static func isOpenEnumFallback(_ schema: OpenAPIValue) -> Bool {
        guard let keywords = schema.objectValue, keywords["type"] == .string("string") else { return false }
        return keywords.keys.allSatisfy { $0 == "type" || annotations.contains($0) }
    }

    private func checkCombinators(
        _ value: OpenAPIValue, _ keywords: [String: OpenAPIValue], _ path: String, _ found: inout [String], depth: Int
    ) {
        for subschema in keywords["allOf"]?.arrayValue ?? [] {
            check(value, subschema, path, &found, depth: depth + 1)
        }
        if var options = keywords["anyOf"]?.arrayValue {
            // In the closed world an open enum is its known values.
            if closedWorld, options.count > 1, options.contains(where: Self.isOpenEnumFallback) {
                options.removeAll(where: Self.isOpenEnumFallback)
            }
            let results = options.map { violations(of: value, against: $0, at: path, depth: depth + 1) }
            if !results.contains(where: \.isEmpty) {
                found.append("\(path): \(value.summary) matches none of anyOf: \(Self.join(results))")
            }
        }
        if let options = keywords["oneOf"]?.arrayValue {
            let results = options.map { violations(of: value, against: $0, at: path, depth: depth + 1) }
            let matching = results.filter(\.isEmpty).count
            if matching != 1 {
                found.append(
                    "\(path): \(value.summary) matches \(matching) of oneOf, not exactly 1: \(Self.join(results))")
            }
        }
        if let condition = keywords["if"] {
            let branch =
                violations(of: value, against: condition, at: path, depth: depth + 1).isEmpty
                ? keywords["then"] : keywords["else"]
            if let branch { check(value, branch, path, &found, depth: depth + 1) }
        }
    }

    private func violations(
        of value: OpenAPIValue, against schema: OpenAPIValue, at path: String, depth: Int
    ) -> [String] {
        var found: [String] = []
        check(value, schema, path, &found, depth: depth)
        return found
    }

    private static func join(_ results: [[String]]) -> String {
        results.enumerated().map { "[\($0.offset)] \($0.element.joined(separator: "; "))" }.joined(separator: " | ")
    }

    /// RFC 3339 `date-time`: a full date, `T`, a time with optional fraction, and `Z` or a numeric offset.
    static let dateTimePattern =
        #"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt]([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$"#

    /// Whether `text` matches `pattern` anywhere (JSON Schema patterns are not anchored); nil for a bad pattern.
    static func matches(_ text: String, pattern: String) -> Bool? {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return nil }
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        return expression.firstMatch(in: text, range: range) != nil
    }
}
