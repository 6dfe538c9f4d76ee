public import Foundation
public import HTTPTypes

/// The repository's `openapi.yaml`, loaded for conformance tests: it answers whether a real response (status,
/// content type, headers, body) is one the document describes.
public struct OpenAPIDocument: Sendable {
    /// The parsed document.
    public let root: OpenAPIValue
    /// The schema checker bound to this document's components.
    public let schemas: OpenAPISchemaChecker

    /// The HTTP methods an OpenAPI path item may hold.
    public static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// `closedWorld` reads the document as the service must keep it (the default: no undocumented members,
    /// only the known values of open enums) or, when false, as a client may (see `OpenAPISchemaChecker`).
    public init(root: OpenAPIValue, closedWorld: Bool = true) {
        self.root = root
        schemas = OpenAPISchemaChecker(root: root, closedWorld: closedWorld)
    }

    /// `openapi.yaml` at the package root, found from this file's own path
    /// (`<root>/Tests/TripHistoryTestSupport/OpenAPIDocument.swift`).
    public static var defaultURL: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("openapi.yaml")
    }

    /// Reads and parses the document at `url`, in the closed world unless `closedWorld` is false.
    public static func load(from url: URL = defaultURL, closedWorld: Bool = true) throws -> OpenAPIDocument {
        let text = try String(contentsOf: url, encoding: .utf8)
        return OpenAPIDocument(root: try OpenAPIValue.parseYAML(text), closedWorld: closedWorld)
    }

    /// Every documented operation as `METHOD /path/{template}`, e.g. `GET /v1/riders/{rider_id}/trips`.
    public var operations: Set<String> {
        var found: Set<String> = []
        for (path, item) in root["paths"]?.objectValue ?? [:] {
            for method in Self.methods where item[method] != nil {
                found.insert("\(method.uppercased()) \(path)")
            }
        }
        return found
    }

    /// The violations of a response to `method path` (`path` is the template as documented, e.g.
    /// `/v1/riders/{rider_id}/trips`): the status must be documented for the operation (exactly, as `4XX`, or
    /// through `default`), the content type must be one the response lists and the body must match its schema,
    /// and, when `headers` is given, every header the response marks `required` must be present and match its
    /// schema. Empty when the response conforms.
    public func validate(
        response status: Int, contentType: String?, body: Data, path: String, method: String,
        headers: HTTPFields? = nil
    ) -> [String] {
        let label = "\(method.uppercased()) \(path) → \(status)"
        guard let item = root["paths"]?[path] else { return ["\(label): the path is not documented"] }
        guard let operation = item[method.lowercased()] else {
            return ["\(label): the method is not documented for this path"]
        }
        let responses = operation["responses"]
        guard let documented = responses?[String(status)] ?? responses?["\(status / 100)XX"] ?? responses?["default"]
        else {
            let listed = (responses?.objectValue?.keys.sorted() ?? []).joined(separator: ", ")
            return ["\(label): the status is not documented (documented: \(listed))"]
        }
        return check(documented, contentType: contentType, body: body, headers: headers, label: label)
    }

    /// The violations of a response against the reusable response `components.responses.<name>`, for answers
    /// that OpenAPI cannot attach to an operation (a 404 for an unknown path, a 405 for an undocumented method).
    public func validate(
        response status: Int, contentType: String?, body: Data, componentResponse name: String,
        headers: HTTPFields? = nil
    ) -> [String] {
        let label = "components.responses.\(name) ← \(status)"
        guard let documented = root["components"]?["responses"]?[name] else {
            return ["\(label): no such component response"]
        }
        var found: [String] = []
        if let expected = declaredStatus(of: documented), expected != status {
            found.append("\(label): the response documents status \(expected)")
        }
        return found + check(documented, contentType: contentType, body: body, headers: headers, label: label)
    }

    /// The violations of `value` against the component schema `components.schemas.<name>`.
    public func validate(_ value: OpenAPIValue, schemaNamed name: String) -> [String] {
        schemas.violations(of: value, against: .object(["$ref": .string("#/components/schemas/\(name)")]))
    }

    /// The object a `$ref` names, following chains of references; the value itself when it is not one.
    public func resolved(_ value: OpenAPIValue) -> OpenAPIValue? {
        var current = value
        for _ in 0..<16 {
            guard let reference = current["$ref"]?.stringValue else { return current }
            guard let target = schemas.resolve(reference: reference) else { return nil }
            current = target
        }
        return nil
    }

    private func check(
        _ documented: OpenAPIValue, contentType: String?, body: Data, headers: HTTPFields?, label: String
    ) -> [String] {
        guard let response = resolved(documented) else { return ["\(label): unresolvable response $ref"] }
        var found: [String] = []
        if let headers { found += checkHeaders(response, headers, label: label) }
        guard let content = response["content"]?.objectValue, !content.isEmpty else {
            if !body.isEmpty { found.append("\(label): a body was sent but the response documents none") }
            return found
        }
        guard let contentType else {
            return found + ["\(label): no Content-Type, expected one of \(content.keys.sorted())"]
        }
        let mediaType =
            contentType.split(separator: ";").first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
        guard let media = content[mediaType] else {
            return found + ["\(label): Content-Type \(contentType) is not documented (\(content.keys.sorted()))"]
        }
        guard let schema = media["schema"] else { return found }
        let value: OpenAPIValue
        if mediaType == "application/json" || mediaType.hasSuffix("+json") {
            do {
                value = try OpenAPIValue.parseJSON(body)
            } catch {
                return found + ["\(label): the body is not JSON: \(error)"]
            }
        } else {
            guard let text = String(data: body, encoding: .utf8) else {
                return found + ["\(label): the body is not UTF-8 text"]
            }
            if mediaType == "application/yaml" {
                // Checked as the document it holds, as schemathesis does.
                do {
                    value = try OpenAPIValue.parseYAML(text)
                } catch {
                    return found + ["\(label): the body is not YAML: \(error)"]
                }
            } else {
                value = .string(text)
            }
        }
        return found + schemas.violations(of: value, against: schema).map { "\(label): \($0)" }
    }

    private func checkHeaders(_ response: OpenAPIValue, _ headers: HTTPFields, label: String) -> [String] {
        var found: [String] = []
        for (name, documented) in (response["headers"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            // OpenAPI ignores a Content-Type header definition; the media type is checked from `content`.
            guard name.lowercased() != "content-type", let fieldName = HTTPField.Name(name) else { continue }
            guard let header = resolved(documented) else {
                found.append("\(label): header \(name) has an unresolvable $ref")
                continue
            }
            guard let text = headers[fieldName] else {
                if header["required"]?.boolValue == true {
                    found.append("\(label): the required header \(name) is missing")
                }
                continue
            }
            guard let schema = header["schema"] else { continue }
            let value = headerValue(text, schema: schema)
            found += schemas.violations(of: value, against: schema, at: "header \(name)").map { "\(label): \($0)" }
        }
        return found
    }

    /// A header's text as the JSON value its schema expects (`simple` style): integers are read as numbers.
    private func headerValue(_ text: String, schema: OpenAPIValue) -> OpenAPIValue {
        let type = resolved(schema)?["type"]?.stringValue
        if type == "integer", let number = Int64(text.trimmingCharacters(in: .whitespaces)) { return .integer(number) }
        if type == "boolean", let flag = Bool(text) { return .bool(flag) }
        return .string(text)
    }

    /// The status a component response pins in its problem schema (`status` with equal `minimum` and
    /// `maximum`), if any.
    private func declaredStatus(of documented: OpenAPIValue) -> Int? {
        guard let response = resolved(documented), let content = response["content"]?.objectValue else { return nil }
        for media in content.values {
            for part in media["schema"]?["allOf"]?.arrayValue ?? [] {
                let status = part["properties"]?["status"]
                if case .integer(let minimum)? = status?["minimum"], status?["maximum"] == .integer(minimum) {
                    return Int(minimum)
                }
            }
        }
        return nil
    }
}
