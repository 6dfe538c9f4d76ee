import HTTPTypes
import Hummingbird
import NIOCore

/// A finished response of a rider read: status, headers and body, before the framework or the event-loop
/// shortcut adds what every response gets (`Content-Length`, `X-Request-ID`, `Date`).
public struct RenderedResponse: Sendable {
    public let status: HTTPResponse.Status
    public let headers: HTTPFields
    /// Nil for a 304.
    public let body: ByteBuffer?

    public init(status: HTTPResponse.Status, headers: HTTPFields, body: ByteBuffer?) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

extension Response {
    init(_ rendered: RenderedResponse) {
        if let body = rendered.body {
            self.init(status: rendered.status, headers: rendered.headers, body: .init(byteBuffer: body))
        } else {
            self.init(status: rendered.status, headers: rendered.headers)
        }
    }
}

/// What the event-loop shortcut does with a request: send an answer it has now, or compute one.
public enum ShortcutReply: Sendable {
    case answer(ShortcutAnswer)
    /// Throws where the router would answer with a problem; the request then goes to the router.
    case compute(@Sendable () async throws -> ShortcutAnswer)
}

/// A response the event-loop shortcut may send for a request, with the route pattern its metrics count under.
public struct ShortcutAnswer: Sendable {
    public let route: String
    public let response: RenderedResponse

    public init(route: String, response: RenderedResponse) {
        self.route = route
        self.response = response
    }
}
