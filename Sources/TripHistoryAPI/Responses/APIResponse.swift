public import HTTPTypes
public import NIOCore

/// A finished response of the API: status, headers and body, before the server adds what every response
/// gets on the wire (`Content-Length`, `X-Request-ID`, `Date`).
public struct APIResponse: Sendable {
    /// What follows the head.
    public enum Body: Sendable {
        /// No body (a 304).
        case empty
        /// The whole body, computed before the head is sent.
        case bytes(ByteBuffer)
        /// A body written piece by piece after the head (the analyst exports).
        case stream(APIBodyStream)
    }

    public let status: HTTPResponse.Status
    public var headers: HTTPFields
    public let body: Body

    public init(status: HTTPResponse.Status, headers: HTTPFields, body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body's bytes when it was computed up front.
    public var bytes: ByteBuffer? {
        if case .bytes(let buffer) = body { return buffer }
        return nil
    }
}

/// Where a streamed body goes: the server's response writer, or a test's buffer.
public protocol APIBodyWriter {
    /// Sends `buffer` as the next piece of the body; throws when the client has gone.
    mutating func write(_ buffer: ByteBuffer) async throws
}

/// A body that writes itself to an `APIBodyWriter`. When `write` returns, the body is complete; when it
/// throws, the response must end without its last piece, so the client sees a truncated transfer.
public struct APIBodyStream: Sendable {
    public let write: @Sendable (inout any APIBodyWriter) async throws -> Void

    public init(_ write: @escaping @Sendable (inout any APIBodyWriter) async throws -> Void) {
        self.write = write
    }
}
