import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A TCP client that sends bytes exactly as given and reads what the server sends, for tests of how the
/// server treats a connection (timeouts, refusals) rather than a request. Used from one task at a time.
final class RawConnection {
    private let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
    private var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    /// Bytes received and not yet returned.
    private var received: [UInt8] = []
    /// Whether the server closed the connection (end of stream or reset).
    private(set) var isClosedByServer = false

    private init(channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>) {
        self.channel = channel
        inbound = channel.inbound.makeAsyncIterator()
    }

    /// Connects to the loopback `port`, from the loopback address `source` when given (any address of
    /// 127.0.0.0/8 is this host's, so a test can be several clients). A `receiveBufferSize` keeps the kernel
    /// from buffering much for a client that stops reading.
    static func open(port: Int, source: String? = nil, receiveBufferSize: Int? = nil) async throws -> RawConnection {
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        if let source { bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: source, port: 0)) }
        if let receiveBufferSize {
            bootstrap = bootstrap.channelOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(receiveBufferSize))
        }
        let channel = try await bootstrap.connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
        return RawConnection(channel: channel)
    }

    deinit {
        channel.outbound.finish()
        channel.channel.close(promise: nil)
    }

    func send(_ text: String) async throws {
        try await channel.outbound.write(ByteBuffer(string: text))
    }

    /// Sends `bytes` as they are, in one write (a binary PROXY protocol header).
    func send(bytes: [UInt8]) async throws {
        try await channel.outbound.write(ByteBuffer(bytes: bytes))
    }

    func close() async {
        try? await channel.channel.close()
    }

    /// The next complete response (a head and a body of its `Content-Length`; the head alone `toHEAD`, whose
    /// response has no body whatever its `Content-Length` says), or nil when the connection ends first or
    /// `deadline` passes.
    func readResponse(toHEAD: Bool = false, within deadline: Duration = .seconds(60)) async -> String? {
        await reading(within: deadline) {
            guard let headEnd = Self.find([13, 10, 13, 10], in: $0.received) else { return nil }
            let head = String(decoding: $0.received[..<headEnd], as: UTF8.self)
            let length =
                toHEAD
                ? 0
                : head.split(separator: "\r\n").lazy.compactMap { line -> Int? in
                    let parts = line.split(separator: ":", maxSplits: 1)
                    guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                    return Int(parts[1].trimmingCharacters(in: .whitespaces))
                }.first ?? 0
            let end = headEnd + 4 + length
            guard $0.received.count >= end else { return nil }
            let response = String(decoding: $0.received[..<end], as: UTF8.self)
            $0.received.removeFirst(end)
            return response
        }
    }

    /// Everything the server sends until it closes the connection, or nil when it is still open after
    /// `deadline`.
    func readUntilClosed(within deadline: Duration = .seconds(60)) async -> String? {
        let text = await reading(within: deadline) { connection in
            connection.isClosedByServer ? String(decoding: connection.received, as: UTF8.self) : nil
        }
        return isClosedByServer ? text : nil
    }

    /// Takes the next piece the server sent and returns its size, or nil once the connection has ended; for a
    /// client that reads slowly.
    func receiveSome() async -> Int? {
        if isClosedByServer { return nil }
        if let buffer = try? await inbound.next() {
            received += buffer.readableBytesView
            return buffer.readableBytes
        }
        isClosedByServer = true
        return nil
    }

    /// Reads until `complete` returns a value, the stream ends (then `complete` decides once more), or the
    /// deadline passes, when the connection is closed from this side and nil returned.
    private func reading(within deadline: Duration, until complete: (RawConnection) -> String?) async -> String? {
        let timedOut = Flag()
        let channel = self.channel.channel
        let timer = channel.eventLoop.scheduleTask(in: .nanoseconds(Int64(deadline.components.seconds) * 1_000_000_000))
        {
            timedOut.set()
            channel.close(promise: nil)
        }
        defer { timer.cancel() }
        while true {
            if let value = complete(self) { return value }
            if isClosedByServer { return nil }
            do {
                if let buffer = try await inbound.next() {
                    received += buffer.readableBytesView
                    continue
                }
            } catch {}
            if timedOut.isSet { return nil }
            isClosedByServer = true
        }
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for start in 0...(bytes.count - needle.count) where bytes[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }
}

/// A flag set from the event loop and read from the test.
private final class Flag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
