import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOFoundationEssentialsCompat
import Testing
import TripHistoryTestSupport

/// Sends requests through a test client and records, as test failures, every way a response departs from
/// `openapi.yaml`: an undocumented status, content type, missing required header or a body off its schema.
struct OpenAPIConformanceClient: Sendable {
    /// What a response is checked against.
    enum Documented: Sendable {
        /// An operation: `METHOD` plus the path template as the document spells it.
        case operation(String)
        /// A reusable response of `components.responses`, for unknown paths and methods.
        case component(String)
    }

    let document: OpenAPIDocument
    let client: any TestClientProtocol

    /// Sends the request, expects `status`, and checks the response against `documented`.
    @discardableResult
    func check(
        _ method: HTTPRequest.Method, _ uri: String, _ documented: Documented, headers: HTTPFields = [:],
        body: ByteBuffer? = nil, expect status: HTTPResponse.Status,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> TestResponse {
        let response = try await client.executeRequest(uri: uri, method: method, headers: headers, body: body)
        #expect(response.status == status, "\(method) \(uri)", sourceLocation: sourceLocation)
        for violation in violations(of: response, documented) {
            Issue.record(Comment(rawValue: "\(uri) — \(violation)"), sourceLocation: sourceLocation)
        }
        if response.headers[.contentType] == "application/problem+json" {
            // The document says request_id equals the header; a schema cannot say that.
            let requestID = response.headers[HTTPField.Name("X-Request-ID")!]
            #expect(response.json()["request_id"] as? String == requestID, "\(uri)", sourceLocation: sourceLocation)
        }
        return response
    }

    /// Sends the request again with the `ETag` of `earlier` (a 200 to the same request) in `If-None-Match`,
    /// expects `304 Not Modified`, checks it against `documented`, and that it has the same tag, no body and no
    /// `Content-Type`.
    @discardableResult
    func checkNotModified(
        _ uri: String, _ documented: Documented, headers: HTTPFields, since earlier: TestResponse,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> TestResponse {
        let tag = try #require(earlier.headers[.eTag], "\(uri)", sourceLocation: sourceLocation)
        var conditional = headers
        conditional[.ifNoneMatch] = tag
        let response = try await check(
            .get, uri, documented, headers: conditional, expect: .notModified, sourceLocation: sourceLocation
        )
        #expect(response.headers[.eTag] == tag, "\(uri)", sourceLocation: sourceLocation)
        #expect(response.body.readableBytes == 0, "\(uri)", sourceLocation: sourceLocation)
        #expect(response.headers[.contentType] == nil, "\(uri)", sourceLocation: sourceLocation)
        return response
    }

    func violations(of response: TestResponse, _ documented: Documented) -> [String] {
        let body = Data(buffer: response.body)
        switch documented {
        case .operation(let operation):
            let parts = operation.split(separator: " ", maxSplits: 1).map(String.init)
            return document.validate(
                response: response.status.code, contentType: response.headers[.contentType], body: body,
                path: parts[1], method: parts[0], headers: response.headers
            )
        case .component(let name):
            return document.validate(
                response: response.status.code, contentType: response.headers[.contentType], body: body,
                componentResponse: name, headers: response.headers
            )
        }
    }
}

extension OpenAPIConformanceClient.Documented {
    static let list = Self.operation("GET /v1/riders/{rider_id}/trips")
    static let detail = Self.operation("GET /v1/riders/{rider_id}/trips/{trip_id}")
    static let receipt = Self.operation("GET /v1/riders/{rider_id}/trips/{trip_id}/receipt")
    static let record = Self.operation("POST /v1/trips")
    static let analystList = Self.operation("GET /v1/trips")
    static let stats = Self.operation("GET /v1/trips/stats")
    static let health = Self.operation("GET /healthz")
    static let readiness = Self.operation("GET /readyz")
    static let openAPI = Self.operation("GET /openapi.yaml")
    static let notFound = Self.component("NotFound")
    static let methodNotAllowed = Self.component("MethodNotAllowed")
}
