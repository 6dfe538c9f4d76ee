import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import TripHistoryAPI
import TripHistoryDomain

/// The outermost middleware: assigns the request id, stamps every response with the headers all responses
/// carry (`stamp(_:requestID:cors:origin:)`, shared with the early-read handler), and turns every error,
/// whatever layer threw it, into a problem response. Unknown errors are logged with the request id and
/// answered with a bare 500, so nothing internal reaches the client.
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = TripHistoryRequestContext

    static let requestIDField = HTTPField.Name("X-Request-ID")!

    /// The origins granted cross-origin access; nil adds no CORS fields.
    var cors: CORSPolicy? = nil

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        let requestID = Self.requestID(for: request.headers)
        context.requestID = requestID
        context.logger[metadataKey: "request_id"] = .string(requestID)
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            let problem = Self.problem(for: error, logger: context.logger)
            response = Response(problem.response(requestID: requestID))
        }
        Self.stamp(
            &response.headers, requestID: requestID, cors: cors, origin: cors?.allowedOrigin(of: request.headers))
        return response
    }

    /// Adds what every response carries, whoever answered it: the request id,
    /// `X-Content-Type-Options: nosniff` so no browser guesses another type than the one declared, and with
    /// `cors` its fields for a request from `origin` (`CORSPolicy.allowedOrigin(of:)`).
    static func stamp(
        _ headers: inout HTTPFields, requestID: String, cors: CORSPolicy? = nil, origin: String? = nil
    ) {
        headers[requestIDField] = requestID
        headers[.xContentTypeOptions] = "nosniff"
        cors?.stamp(&headers, allowedOrigin: origin)
    }

    /// The id a response to a request with these headers carries: the client's when usable, else a new one.
    static func requestID(for headers: HTTPFields) -> String {
        usableRequestID(headers.value(of: requestIDField)) ?? RequestID().description
    }

    /// Accepts a client's id only when it is short and plain, so it is safe to echo and to log.
    static func usableRequestID(_ value: String?) -> String? {
        guard let value, (1...128).contains(value.utf8.count),
            value.utf8.allSatisfy({ byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            })
        else { return nil }
        return value
    }

    /// Errors the framework throws itself (an unknown path, a malformed request) become the matching
    /// problem; every other error is mapped by the API module.
    static func problem(for error: any Error, logger: Logger) -> Problem {
        switch error {
        case let error as HTTPError where error.status == .notFound:
            return .notFound
        case let error as HTTPError where (400..<500).contains(error.status.code):
            return Problem(
                status: error.status, code: .invalidParameter, title: error.status.reasonPhrase,
                detail: "The request could not be processed as sent."
            )
        default:
            return Problem(mapping: error, logger: logger)
        }
    }
}
