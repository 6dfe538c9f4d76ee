import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import TripHistoryHTTP

/// The PROXY protocol version 2 header as `ProxyHeader.parse(_:)` reads it, the trusted proxies' ranges, and
/// `ProxyProtocolHandler` on a channel: the bytes after the header reach the next handler intact however the
/// header is split, and a bad header closes the connection.
@Suite struct ProxyHeaderTests {
    /// A version 2 header: `command` (0 LOCAL, 1 PROXY), `family` and transport byte, the address block
    /// `addresses`, then `tlvs`.
    static func header(command: UInt8 = 1, family: UInt8, addresses: [UInt8], tlvs: [UInt8] = []) -> [UInt8] {
        let length = addresses.count + tlvs.count
        return ProxyHeader.signature + [0x20 | command, family, UInt8(length >> 8), UInt8(length & 0xFF)] + addresses
            + tlvs
    }

    /// TCP over IPv4 from `source`:`port` to 127.0.0.1:8080.
    static func ipv4(_ source: [UInt8], port: UInt16 = 51_000, tlvs: [UInt8] = []) -> [UInt8] {
        header(
            family: 0x11, addresses: source + [127, 0, 0, 1] + [UInt8(port >> 8), UInt8(port & 0xFF), 0x1F, 0x90],
            tlvs: tlvs)
    }

    private static func parse(_ bytes: [UInt8]) -> ProxyHeader.Parse {
        ProxyHeader.parse(ByteBuffer(bytes: bytes))
    }

    @Test func aProxyCommandOverIPv4NamesItsSource() throws {
        let bytes = Self.ipv4([203, 0, 113, 7], port: 51_000)
        #expect(
            Self.parse(bytes + Array("GET / HTTP/1.1\r\n".utf8))
                == .complete(ProxyHeader(source: try SocketAddress(ipAddress: "203.0.113.7", port: 51_000), length: 28))
        )
    }

    @Test func aProxyCommandOverIPv6NamesItsSource() throws {
        let source: [UInt8] = [0x20, 0x01, 0x0D, 0xB8] + Array(repeating: 0, count: 11) + [7]
        let destination: [UInt8] = Array(repeating: 0, count: 15) + [1]
        let bytes = Self.header(family: 0x21, addresses: source + destination + [0xC3, 0x50, 0x1F, 0x90])
        #expect(
            Self.parse(bytes)
                == .complete(ProxyHeader(source: try SocketAddress(ipAddress: "2001:db8::7", port: 50_000), length: 52))
        )
    }

    @Test func aLocalCommandKeepsThePeer() {
        // haproxy's health checks: LOCAL, with an unspecified family and no addresses.
        #expect(
            Self.parse(Self.header(command: 0, family: 0x00, addresses: []))
                == .complete(ProxyHeader(source: nil, length: 16)))
        // A LOCAL command's addresses, when sent, are ignored.
        let local = Self.header(command: 0, family: 0x11, addresses: [203, 0, 113, 7, 127, 0, 0, 1, 0, 80, 0, 80])
        #expect(Self.parse(local) == .complete(ProxyHeader(source: nil, length: 28)))
    }

    @Test func anUnspecifiedOrUnixFamilyKeepsThePeer() {
        #expect(Self.parse(Self.header(family: 0x00, addresses: [])) == .complete(ProxyHeader(source: nil, length: 16)))
        let unix = Self.header(family: 0x31, addresses: Array(repeating: 0x61, count: 216))
        #expect(Self.parse(unix) == .complete(ProxyHeader(source: nil, length: 232)))
    }

    @Test func typeLengthValueFieldsAreSkipped() throws {
        // PP2_TYPE_ALPN "h2" and PP2_TYPE_AUTHORITY "example.com", counted in the length and skipped.
        let tlvs: [UInt8] = [0x01, 0x00, 0x02] + Array("h2".utf8) + [0x02, 0x00, 0x0B] + Array("example.com".utf8)
        let bytes = Self.ipv4([198, 51, 100, 1], port: 443, tlvs: tlvs)
        let parsed = Self.parse(bytes + Array("GET".utf8))
        #expect(
            parsed
                == .complete(
                    ProxyHeader(source: try SocketAddress(ipAddress: "198.51.100.1", port: 443), length: bytes.count)))
    }

    @Test func everyTruncationOfAValidHeaderIsIncomplete() {
        let bytes = Self.ipv4([203, 0, 113, 7])
        for count in 0..<bytes.count {
            #expect(Self.parse(Array(bytes[..<count])) == .incomplete, "after \(count) bytes")
        }
    }

    @Test(arguments: [
        Array("GET / HTTP/1.1\r\n".utf8),
        Array("PROXY TCP4 203.0.113.7 127.0.0.1 51000 8080\r\n".utf8),
        [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0B],
        [0x0D, 0x0A, 0x0D, 0x0B],
    ])
    func aWrongSignatureIsInvalidFromItsFirstWrongByte(bytes: [UInt8]) {
        guard case .invalid = Self.parse(bytes) else {
            Issue.record("\(bytes) was not refused")
            return
        }
    }

    @Test func aWrongVersionOrCommandIsInvalid() {
        var version1 = Self.ipv4([203, 0, 113, 7])
        version1[12] = 0x11
        var command2 = Self.ipv4([203, 0, 113, 7])
        command2[12] = 0x22
        for bytes in [version1, command2] {
            guard case .invalid = Self.parse(bytes) else {
                Issue.record("byte 12 \(bytes[12]) was not refused")
                continue
            }
        }
    }

    @Test func aLengthOverTheLimitIsInvalidBeforeItsBytesArrive() {
        let length = ProxyHeader.maximumLength - 16 + 1
        let start = ProxyHeader.signature + [0x21, 0x11, UInt8(length >> 8), UInt8(length & 0xFF)]
        guard case .invalid = Self.parse(start) else {
            Issue.record("a header of \(length + 16) bytes was not refused")
            return
        }
        let longest = Self.ipv4([203, 0, 113, 7], tlvs: Array(repeating: 0, count: ProxyHeader.maximumLength - 28))
        #expect(Self.parse(longest) != .incomplete)
        guard case .complete = Self.parse(longest) else {
            Issue.record("a header of exactly the limit was refused")
            return
        }
    }

    @Test func anAddressBlockTooShortOrANonTCPTransportIsInvalid() {
        let short = Self.header(family: 0x11, addresses: [203, 0, 113, 7, 127, 0, 0, 1])
        let udp = Self.header(family: 0x12, addresses: [203, 0, 113, 7, 127, 0, 0, 1, 0, 80, 0, 80])
        let shortIPv6 = Self.header(family: 0x21, addresses: Array(repeating: 0, count: 20))
        for bytes in [short, udp, shortIPv6] {
            guard case .invalid = Self.parse(bytes) else {
                Issue.record("\(bytes) was not refused")
                continue
            }
        }
    }

    // MARK: - Trusted proxies

    @Test func trustedProxiesMatchAddressesAndRanges() throws {
        let trusted = try TrustedProxies(["127.0.0.1", "10.1.0.0/16", "fd00::/8", "192.0.2.128/25"])
        func contains(_ address: String) throws -> Bool {
            trusted.contains(try SocketAddress(ipAddress: address, port: 1))
        }
        #expect(try contains("127.0.0.1"))
        #expect(try !contains("127.0.0.2"))
        #expect(try contains("10.1.255.3"))
        #expect(try !contains("10.2.0.1"))
        #expect(try contains("fd12:3456::1"))
        #expect(try !contains("fe80::1"))
        #expect(try contains("192.0.2.200"))
        #expect(try !contains("192.0.2.100"))
        // A dual-stack listener reports an IPv4 peer as an IPv4-mapped IPv6 address.
        #expect(try contains("::ffff:10.1.2.3"))
        #expect(!trusted.contains(nil))
        #expect(try TrustedProxies(["::ffff:10.0.0.0/104"]).contains(try SocketAddress(ipAddress: "10.9.9.9", port: 1)))
        #expect(try TrustedProxies(["0.0.0.0/0"]).contains(try SocketAddress(ipAddress: "198.51.100.9", port: 1)))
    }

    @Test func noTrustedProxiesTrustsNone() throws {
        let none = TrustedProxies()
        #expect(none.isEmpty)
        #expect(!none.contains(try SocketAddress(ipAddress: "127.0.0.1", port: 1)))
    }

    @Test(arguments: [
        "localhost", "10.0.0.0/33", "fd00::/129", "10.0.0.1/", "10.0.0.1/-1", "10.0.0", "::ffff:10.0.0.0/8",
        "1.2.3.4/+8",
    ])
    func anEntryThatIsNotAnAddressOrARangeIsRefused(entry: String) {
        #expect(throws: TrustedProxies.InvalidEntry(entry: entry)) { try TrustedProxies(["127.0.0.1", entry]) }
    }

    // MARK: - The handler

    /// Records what passes the handler: the bytes and whether the header's event came.
    final class Recorder: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        var bytes: [UInt8] = []
        var headerRead = false

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            bytes += unwrapInboundIn(data).readableBytesView
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if event is ProxyProtocolHandler.HeaderRead { headerRead = true }
        }
    }

    private static func channel(client: ClientAddress) throws -> (EmbeddedChannel, Recorder) {
        let recorder = Recorder()
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(
            ProxyProtocolHandler(client: client, logger: Logger(label: "test")))
        try channel.pipeline.syncOperations.addHandler(recorder)
        return (channel, recorder)
    }

    private static let request = Array("GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n".utf8)

    @Test(arguments: [1, 5, 28, 1000])
    func theBytesAfterTheHeaderArePassedOnIntactHoweverTheyAreSplit(pieceSize: Int) throws {
        let peer = try SocketAddress(ipAddress: "127.0.0.1", port: 40_000)
        let client = ClientAddress(peer)
        let (channel, recorder) = try Self.channel(client: client)
        let bytes = Self.ipv4([203, 0, 113, 7], port: 51_000) + Self.request
        for start in stride(from: 0, to: bytes.count, by: pieceSize) {
            try channel.writeInbound(ByteBuffer(bytes: bytes[start..<min(start + pieceSize, bytes.count)]))
            if start + pieceSize < 28 {
                #expect(!recorder.headerRead)
                #expect(client.address == peer)
            }
        }
        #expect(recorder.headerRead)
        #expect(recorder.bytes == Self.request)
        #expect(client.address == (try SocketAddress(ipAddress: "203.0.113.7", port: 51_000)))
        // The handler left the pipeline: later bytes pass straight through.
        #expect(throws: (any Error).self) {
            try channel.pipeline.syncOperations.handler(type: ProxyProtocolHandler.self)
        }
        try channel.writeInbound(ByteBuffer(bytes: Self.ipv4([198, 51, 100, 1])))
        #expect(recorder.bytes == Self.request + Self.ipv4([198, 51, 100, 1]))
        #expect(client.address == (try SocketAddress(ipAddress: "203.0.113.7", port: 51_000)))
        _ = try channel.finish()
    }

    @Test func aLocalHeaderKeepsThePeerAndPassesTheRequestOn() throws {
        let peer = try SocketAddress(ipAddress: "127.0.0.1", port: 40_000)
        let client = ClientAddress(peer)
        let (channel, recorder) = try Self.channel(client: client)
        try channel.writeInbound(ByteBuffer(bytes: Self.header(command: 0, family: 0, addresses: []) + Self.request))
        #expect(recorder.headerRead)
        #expect(recorder.bytes == Self.request)
        #expect(client.address == peer)
        _ = try channel.finish()
    }

    @Test func aConnectionWithoutAValidHeaderIsClosedAndNothingPassesOn() throws {
        let peer = try SocketAddress(ipAddress: "127.0.0.1", port: 40_000)
        let client = ClientAddress(peer)
        let (channel, recorder) = try Self.channel(client: client)
        try channel.connect(to: peer).wait()
        #expect(channel.isActive)
        try channel.writeInbound(ByteBuffer(bytes: Self.request))
        #expect(!channel.isActive)
        #expect(!recorder.headerRead)
        #expect(recorder.bytes.isEmpty)
        #expect(client.address == peer)
    }
}
