import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sets `Accept-Language` and `If-None-Match` verbatim.
///
/// The generated code writes header parameters URI-encoded (`"` becomes `%22`, `,` `%2C`), which would turn an
/// entity tag into one that never matches and a language list into nonsense; this middleware writes them as
/// RFC 9110 spells them. `If-None-Match` comes from `ifNoneMatch`, set around the one call that revalidates.
struct RequestHeadersMiddleware: ClientMiddleware {
    let acceptLanguage: String?

    /// The entity tag to revalidate with, for the request sent in this task.
    @TaskLocal static var ifNoneMatch: String?

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if let acceptLanguage { request.headerFields[.acceptLanguage] = acceptLanguage }
        if let tag = Self.ifNoneMatch { request.headerFields[.ifNoneMatch] = tag }
        return try await next(request, body, baseURL)
    }
}
