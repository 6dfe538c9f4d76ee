import Hummingbird
import NIOCore
import TripHistoryAPI

extension Response {
    /// The framework's response for an API response; a streamed body is written through the framework's
    /// writer and finished only when the stream completes, so a failed stream ends as a truncated transfer.
    init(_ response: APIResponse) {
        switch response.body {
        case .empty:
            self.init(status: response.status, headers: response.headers)
        case .bytes(let buffer):
            self.init(status: response.status, headers: response.headers, body: .init(byteBuffer: buffer))
        case .stream(let stream):
            self.init(
                status: response.status, headers: response.headers,
                body: ResponseBody { writer in
                    var body: any APIBodyWriter = FrameworkBodyWriter(base: writer)
                    try await stream.write(&body)
                    if let body = body as? FrameworkBodyWriter { try await body.base.finish(nil) }
                }
            )
        }
    }
}

/// The framework's response writer seen as the API's body writer.
private struct FrameworkBodyWriter: APIBodyWriter {
    var base: any ResponseBodyWriter

    mutating func write(_ buffer: ByteBuffer) async throws {
        try await base.write(buffer)
    }
}
