import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOFoundationEssentialsCompat
import Testing
import TripHistoryApp
import TripHistoryFakes
import TripHistoryTestSupport
import TripHistoryWeb

/// The explorer and API reference routes, registered on the service's own router (problem middleware
/// included) exactly as the composition root does.
@Suite struct WebPagesTests {
    static let contentSecurityPolicy = HTTPField.Name("Content-Security-Policy")!
    static let contentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!

    let pages: WebPages

    init() throws {
        pages = try WebPages(openAPIDocument: TestAPI<InMemoryTripRepository>.repositoryOpenAPIDocument)
    }

    func withApplication(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let api = await TestAPI(
            repository: InMemoryTripRepository(), analystRepository: InMemoryAnalystTripRepository(trips: []),
            settings: {
                $0.webPages = pages
            })
        try await api.test(body)
    }

    static func expectSecurityHeaders(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        let policy = response.headers[contentSecurityPolicy] ?? ""
        let directives = Set(policy.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(directives.contains("default-src 'none'"), sourceLocation: sourceLocation)
        #expect(directives.contains("script-src 'self'"), sourceLocation: sourceLocation)
        #expect(directives.contains("style-src 'self'"), sourceLocation: sourceLocation)
        #expect(directives.contains("frame-ancestors 'none'"), sourceLocation: sourceLocation)
        #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"), sourceLocation: sourceLocation)
        #expect(
            !policy.contains("http:") && !policy.contains("https:") && !policy.contains("*"),
            sourceLocation: sourceLocation)
        #expect(response.headers[contentTypeOptions] == "nosniff", sourceLocation: sourceLocation)
        #expect(response.headers[referrerPolicy] == "no-referrer", sourceLocation: sourceLocation)
    }

    /// Every `src` and `href` of a page that points into `/assets/`.
    static func assetURLs(in html: String) -> [String] {
        html.components(separatedBy: "\"").filter { $0.hasPrefix("/assets/") }
    }

    @Test(arguments: ["/explorer", "/docs"])
    func pagesAreHTMLRevalidatedOnEveryVisitWithAStrictPolicy(path: String) async throws {
        try await withApplication { client in
            let tag = try await client.execute(uri: path, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.headers[.cacheControl] == "no-cache")
                Self.expectSecurityHeaders(response)
                let html = String(buffer: response.body)
                #expect(html.hasPrefix("<!doctype html>"))
                #expect(!html.contains("{{"), "an asset placeholder was left in the page")
                // No inline script or style: the policy would block it, so the page must not need it.
                #expect(!html.contains("<script>") && !html.contains("<style") && !html.contains(" style="))
                #expect(
                    !html.contains("http://") && !html.contains("https://"), "the page loads nothing from elsewhere")
                return try #require(response.headers[.eTag])
            }
            try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: tag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: "\"stale\""]) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func otherMethodsAreClientErrorsAndHeadHasNoBody() async throws {
        try await withApplication { client in
            for uri in ["/explorer", "/docs", "/"] {
                for method in [HTTPRequest.Method.post, .put, .delete] {
                    try await client.execute(uri: uri, method: method) { response in
                        #expect((400..<500).contains(response.status.code), "\(method) \(uri): \(response.status)")
                        #expect(response.headers[.contentType] == "application/problem+json")
                    }
                }
            }
            try await client.execute(uri: "/explorer", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes == 0)
            }
        }
    }

    @Test func theRootRedirectsToTheExplorerKeepingItsFilter() async throws {
        try await withApplication { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .found)
                #expect(response.headers[.location] == "/explorer")
            }
            try await client.execute(uri: "/?city=Paris&from=2026-01-01", method: .get) { response in
                #expect(response.status == .found)
                #expect(response.headers[.location] == "/explorer?city=Paris&from=2026-01-01")
            }
        }
    }

    @Test func everyAssetAPageNamesResolvesWithItsTypeAndIsCachedForAYear() async throws {
        try await withApplication { client in
            var urls: Set<String> = []
            for path in ["/explorer", "/docs"] {
                let found = try await client.execute(uri: path, method: .get) { response in
                    Self.assetURLs(in: String(buffer: response.body))
                }
                urls.formUnion(found)
            }
            #expect(urls.count == 5, "\(urls.sorted())")
            for url in urls.sorted() {
                // The name carries 12 hex digits of the content's hash before the extension.
                let name = url.dropFirst("/assets/".count).split(separator: ".")
                #expect(name.count == 3 && name[1].count == 12 && name[1].allSatisfy(\.isHexDigit), "\(url)")
                try await client.execute(uri: url, method: .get) { response in
                    #expect(response.status == .ok, "\(url)")
                    #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
                    #expect(response.body.readableBytes > 0)
                    Self.expectSecurityHeaders(response)
                    let expectedType: String =
                        switch name.last {
                        case "js": "text/javascript; charset=utf-8"
                        case "css": "text/css; charset=utf-8"
                        case "svg": "image/svg+xml"
                        default: "application/json"
                        }
                    #expect(response.headers[.contentType] == expectedType, "\(url)")
                }
            }
        }
    }

    @Test(arguments: [
        "/assets/explorer.js", "/assets/explorer.000000000000.js", "/assets/nothing.css", "/assets/..%2FPackage.swift",
    ])
    func unknownOrUnversionedAssetsAreNotFoundProblems(url: String) async throws {
        try await withApplication { client in
            try await client.execute(uri: url, method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(response.json().string("code") == "not_found")
            }
        }
    }

    @Test func theHashedURLChangesWithTheContent() throws {
        let other = try WebPages(openAPIDocument: Array("openapi: 3.1.0\ninfo: {title: Other}\n".utf8))
        #expect(pages.assetPath("openapi.json") != other.assetPath("openapi.json"))
        #expect(pages.assetPath("explorer.js") == other.assetPath("explorer.js"))
        #expect(pages.assetPath("nothing.js") == nil)
    }

    @Test func theServedSpecificationIsTheYAMLDocumentAsJSONInDocumentOrder() async throws {
        let jsonPath = try #require(pages.assetPath("openapi.json"))
        try await withApplication { client in
            try await client.execute(uri: jsonPath, method: .get) { response in
                let bytes = Data(buffer: response.body)
                let fromJSON = try OpenAPIValue.parseJSON(bytes)
                let fromYAML = try OpenAPIValue.parseYAML(
                    String(decoding: TestAPI<InMemoryTripRepository>.repositoryOpenAPIDocument, as: UTF8.self))
                // JSON does not tell `450.0` from `450`; JSON Schema's equality does not either.
                #expect(
                    fromJSON.jsonEquals(fromYAML), "first difference at \(Self.firstDifference(fromJSON, fromYAML))")
                // The reference lists paths in the document's order, which a JSON object keeps as text.
                let text = String(decoding: bytes, as: UTF8.self)
                let yamlText = String(
                    decoding: TestAPI<InMemoryTripRepository>.repositoryOpenAPIDocument, as: UTF8.self)
                let paths = try #require(fromYAML["paths"]?.objectValue).keys
                func order(_ document: String, _ affix: (String) -> String) -> [String] {
                    paths.sorted {
                        document.range(of: affix($0))!.lowerBound < document.range(of: affix($1))!.lowerBound
                    }
                }
                #expect(order(text) { "\"\($0)\":{" } == order(yamlText) { "\n  \($0):\n" })
            }
        }
    }

    /// The path of the first member where `lhs` and `rhs` differ, for a readable failure.
    static func firstDifference(_ lhs: OpenAPIValue, _ rhs: OpenAPIValue, at path: String = "") -> String {
        if let left = lhs.objectValue, let right = rhs.objectValue, Set(left.keys) == Set(right.keys) {
            for key in left.keys.sorted() where !left[key]!.jsonEquals(right[key]!) {
                return firstDifference(left[key]!, right[key]!, at: path + "/" + key)
            }
        }
        if let left = lhs.arrayValue, let right = rhs.arrayValue, left.count == right.count {
            for index in left.indices where !left[index].jsonEquals(right[index]) {
                return firstDifference(left[index], right[index], at: path + "/\(index)")
            }
        }
        return "\(path): \(lhs.summary) vs \(rhs.summary)"
    }

    @Test(arguments: ["key: [unclosed", "", "? [a, b]\n: c\n"])
    func aDocumentThatIsNotUsableYAMLIsRefusedAtStartUp(yaml: String) {
        #expect(throws: (any Error).self) { try WebPages(openAPIDocument: Array(yaml.utf8)) }
    }
}
