import HTTPTypes
import NIOCore

/// The bytes of an HTTP/1.1 response head: the status line, each field as `Name: value`, and the empty line,
/// as NIO's `HTTPResponseEncoder` writes them. The early-read handler writes its answers as these bytes and
/// the body, straight past the encoder, instead of as parts that the HTTP types codec converts and the encoder
/// frames and copies one by one; its answers always carry their own framing (`Content-Length`).
enum HTTP1ResponseHead {
    /// Room for a typical answer's head, so writing it does not grow the buffer.
    static let typicalCapacity = 640

    /// The head of a response with `status` and `fields`. `HTTPFields` holds only legal names and values, so
    /// nothing written here can break the message's framing.
    static func bytes(status: HTTPResponse.Status, fields: HTTPFields, allocator: ByteBufferAllocator) -> ByteBuffer {
        var head = allocator.buffer(capacity: typicalCapacity)
        head.writeStaticString("HTTP/1.1 ")
        let code = status.code
        head.writeInteger(UInt8(ascii: "0") + UInt8(code / 100 % 10))
        head.writeInteger(UInt8(ascii: "0") + UInt8(code / 10 % 10))
        head.writeInteger(UInt8(ascii: "0") + UInt8(code % 10))
        head.writeInteger(UInt8(ascii: " "))
        head.writeString(status.reasonPhrase)
        head.writeStaticString("\r\n")
        for field in fields {
            head.writeString(field.name.rawName)
            head.writeStaticString(": ")
            head.writeString(field.value)
            head.writeStaticString("\r\n")
        }
        head.writeStaticString("\r\n")
        return head
    }

    /// Whether a response with `status` may carry a body, and so needs its length stated when it has none
    /// (RFC 9112 §6.3: 1xx, 204 and 304 never carry one).
    static func mayHaveBody(_ status: HTTPResponse.Status) -> Bool {
        !(status.kind == .informational || status.code == 204 || status.code == 304)
    }
}
