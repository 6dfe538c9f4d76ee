import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Turns every error status into a `TripHistoryError` built from the problem document, before the generated
/// code sees the response, so all operations and all statuses (documented or not) fail the same way.
struct ProblemMiddleware: ClientMiddleware {
    /// The largest problem body read; problems are a few hundred bytes.
    private static let maxProblemBytes = 64 * 1024

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let response: HTTPResponse
        let responseBody: HTTPBody?
        do {
            (response, responseBody) = try await next(request, body, baseURL)
        } catch let error as CancellationError {
            throw error
        } catch {
            // Only the cause: the runtime's own error describes the request, which must never reach a log.
            let cause = (error as? ClientError)?.underlyingError ?? error
            throw TripHistoryError(kind: .transport, retryable: true, detail: String(describing: cause))
        }
        guard response.status.code >= 400 else { return (response, responseBody) }
        var bytes: [UInt8] = []
        if let responseBody {
            bytes = (try? await [UInt8](collecting: responseBody, upTo: Self.maxProblemBytes)) ?? []
        }
        throw Self.error(status: response.status.code, headers: response.headerFields, body: bytes)
    }

    /// The error an error response stands for; a body that is not a problem document still gives the status.
    static func error(status: Int, headers: HTTPFields, body: [UInt8]) -> TripHistoryError {
        let problem = try? JSONDecoder().decode(ProblemDocument.self, from: Data(body))
        let retryAfter = headers[.retryAfter].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            .map { TimeInterval(max(0, $0)) }
        return TripHistoryError(
            kind: .problem,
            status: status,
            code: problem?.code,
            param: problem?.param,
            // Without a problem document, only the statuses that mean "later" are worth repeating.
            retryable: problem?.retryable ?? [429, 502, 503, 504].contains(status),
            requestID: problem?.requestID ?? headers[.requestID],
            detail: problem?.detail,
            retryAfter: retryAfter
        )
    }
}

/// The members of an RFC 9457 problem the client reads.
private struct ProblemDocument: Decodable {
    var code: String?
    var param: String?
    var retryable: Bool?
    var requestID: String?
    var detail: String?

    enum CodingKeys: String, CodingKey {
        case code, param, retryable, detail
        case requestID = "request_id"
    }
}
