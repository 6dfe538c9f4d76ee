import HTTPTypes
import NIOCore

/// The bytes of an HTTP/1.1 response head: the status line, each field as `Name: value`, and the empty line,
/// as NIO's `HTTPResponseEncoder` writes them. The early-read handler writes its answers as these bytes and
/// the body, straight past the encoder, instead of as parts that the HTTP types codec converts and the encoder
/// frames and copies one by one; its answers always carry their own framing (`Content-Length`).
enum HTTP1ResponseHead {
    /// The head of a response with `status` and `fields`. `HTTPFields` holds only legal names and values, so
    /// nothing written here can break the message's framing. The head's length is counted first, so its bytes
    /// are copied into one buffer of that size with no check per piece.
    static func bytes(status: HTTPResponse.Status, fields: HTTPFields, allocator: ByteBufferAllocator) -> ByteBuffer {
        var reason = status.reasonPhrase
        // "HTTP/1.1 200 " + reason + CRLF, each field's name + ": " + value + CRLF, then the empty line's CRLF.
        var length = 13 + reason.utf8.count + 2 + 2
        for field in fields {
            length += field.name.rawName.utf8.count + field.withUnsafeBytesOfValue { $0.count } + 4
        }
        var head = allocator.buffer(capacity: length)
        head.writeWithUnsafeMutableBytes(minimumWritableBytes: length) { raw in
            var writer = Writer(next: raw.baseAddress!.assumingMemoryBound(to: UInt8.self))
            writer.put("HTTP/1.1 ")
            let code = status.code
            writer.put(UInt8(ascii: "0") + UInt8(code / 100 % 10))
            writer.put(UInt8(ascii: "0") + UInt8(code / 10 % 10))
            writer.put(UInt8(ascii: "0") + UInt8(code % 10))
            writer.put(UInt8(ascii: " "))
            reason.withUTF8 { writer.put($0) }
            writer.put("\r\n")
            for field in fields {
                var name = field.name.rawName
                name.withUTF8 { writer.put($0) }
                writer.put(": ")
                field.withUnsafeBytesOfValue { writer.put($0) }
                writer.put("\r\n")
            }
            writer.put("\r\n")
            return length
        }
        return head
    }

    /// Copies pieces one after another into memory known to have room for all of them.
    private struct Writer {
        var next: UnsafeMutablePointer<UInt8>

        mutating func put(_ byte: UInt8) {
            next.pointee = byte
            next += 1
        }

        mutating func put(_ text: StaticString) {
            next.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
            next += text.utf8CodeUnitCount
        }

        mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let base = bytes.baseAddress else { return }
            next.update(from: base, count: bytes.count)
            next += bytes.count
        }
    }
}
