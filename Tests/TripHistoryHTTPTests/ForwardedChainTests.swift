import HTTPTypes
import NIOCore
import Testing

@testable import TripHistoryHTTP

/// `ForwardedChain`: the client an `X-Forwarded-For` or `Forwarded` field names, read from the right past the
/// trusted forwarders; what makes it give up; and that nothing left of the client is read.
@Suite struct ForwardedChainTests {
    typealias Resolution = ForwardedChain.Resolution

    /// The forwarders of every case: a private range, the loopback address and an IPv6 range.
    static let trusted = try! TrustedProxies(["10.0.0.0/8", "127.0.0.1", "fd00::/8"])

    /// One row: the field's lines as received, and what they resolve to.
    struct Case: Sendable, CustomTestStringConvertible {
        let lines: [String]
        let expected: Resolution

        var testDescription: String { "\(lines) -> \(expected)" }
    }

    static func client(_ address: String, port: Int = 0) -> Resolution {
        .client(try! SocketAddress(ipAddress: address, port: port))
    }

    static func resolve(_ lines: [String], _ field: TrustedForwarders.Field) -> Resolution {
        ForwardedChain.client(in: lines, field: field, trusted: trusted)
    }

    /// `count` trusted hops, the rightmost entries a chain of forwarders appends.
    static func trustedHops(_ count: Int) -> String {
        (1...count).map { "10.0.0.\($0)" }.joined(separator: ", ")
    }

    static let xForwardedForCases: [Case] = [
        // The client and the hops after it.
        Case(lines: ["203.0.113.7"], expected: client("203.0.113.7")),
        Case(lines: ["203.0.113.7, 10.0.0.5"], expected: client("203.0.113.7")),
        Case(lines: ["203.0.113.7,10.0.0.5,127.0.0.1"], expected: client("203.0.113.7")),
        Case(lines: ["  203.0.113.7\t,  10.0.0.5  "], expected: client("203.0.113.7")),
        Case(lines: ["203.0.113.7", "10.0.0.5"], expected: client("203.0.113.7")),
        Case(lines: ["203.0.113.7, 10.0.0.5", ""], expected: client("203.0.113.7")),
        // What a client writes left of its own address is never read.
        Case(lines: ["198.51.100.1, 203.0.113.7, 10.0.0.5"], expected: client("203.0.113.7")),
        Case(lines: ["not an address, 203.0.113.7"], expected: client("203.0.113.7")),
        Case(lines: ["unknown, 203.0.113.7"], expected: client("203.0.113.7")),
        Case(lines: [String(repeating: "x", count: 10_000) + ", 203.0.113.7"], expected: client("203.0.113.7")),
        Case(lines: ["198.51.100.1", "203.0.113.7, 10.0.0.5"], expected: client("203.0.113.7")),
        // Ports and IPv6.
        Case(lines: ["203.0.113.7:4711"], expected: client("203.0.113.7", port: 4711)),
        Case(lines: ["2001:db8::7"], expected: client("2001:db8::7")),
        Case(lines: ["[2001:db8::7]"], expected: client("2001:db8::7")),
        Case(lines: ["[2001:db8::7]:4711, [fd00::5]:443"], expected: client("2001:db8::7", port: 4711)),
        Case(lines: ["2001:db8::7, fd00::5"], expected: client("2001:db8::7")),
        Case(lines: ["::ffff:203.0.113.7"], expected: client("::ffff:203.0.113.7")),
        // Every entry trusted: the leftmost.
        Case(lines: ["10.0.0.7, 10.0.0.5"], expected: client("10.0.0.7")),
        // Nothing to read.
        Case(lines: [], expected: .absent),
        Case(lines: [""], expected: .absent),
        Case(lines: [" , ,"], expected: .absent),
        // Entries the walk reaches that name no client.
        Case(lines: ["unknown"], expected: .ignored(.unknown)),
        Case(lines: ["203.0.113.7, UNKNOWN, 10.0.0.5"], expected: .ignored(.unknown)),
        Case(lines: ["_hidden"], expected: .ignored(.obfuscated)),
        Case(lines: ["203.0.113.7, client.example.com"], expected: .ignored(.malformed)),
        Case(lines: ["203.0.113.256"], expected: .ignored(.malformed)),
        Case(lines: ["203.0.113"], expected: .ignored(.malformed)),
        Case(lines: ["203.0.113.07"], expected: .ignored(.malformed)),
        Case(lines: ["203.0.113.7:"], expected: .ignored(.malformed)),
        Case(lines: ["203.0.113.7:65536"], expected: .ignored(.malformed)),
        Case(lines: ["203.0.113.7:http"], expected: .ignored(.malformed)),
        Case(lines: ["203.0.113.7:_port"], expected: .ignored(.malformed)),
        Case(lines: ["203.0.113.7 198.51.100.1"], expected: .ignored(.malformed)),
        Case(lines: ["\"203.0.113.7\""], expected: .ignored(.malformed)),
        Case(lines: ["[2001:db8::7"], expected: .ignored(.malformed)),
        Case(lines: ["[2001:db8::7]4711"], expected: .ignored(.malformed)),
        Case(lines: ["[203.0.113.7]"], expected: .ignored(.malformed)),
        Case(lines: ["fe80::1%eth0"], expected: .ignored(.malformed)),
        Case(lines: ["for=203.0.113.7"], expected: .ignored(.malformed)),
        // Bounds: hops read, bytes read.
        Case(lines: ["203.0.113.7, " + trustedHops(15)], expected: client("203.0.113.7")),
        Case(lines: ["203.0.113.7, " + trustedHops(16)], expected: .ignored(.tooManyHops)),
        Case(
            lines: ["203.0.113.7, " + String(repeating: " ", count: 5000) + "10.0.0.5"],
            expected: .ignored(.tooLong)),
    ]

    static let forwardedCases: [Case] = [
        Case(lines: ["for=203.0.113.7"], expected: client("203.0.113.7")),
        Case(lines: ["For=203.0.113.7;proto=https;by=10.0.0.5"], expected: client("203.0.113.7")),
        Case(lines: ["proto=https;for=203.0.113.7 ; host=api.example.com"], expected: client("203.0.113.7")),
        Case(lines: ["for=203.0.113.7, for=10.0.0.5"], expected: client("203.0.113.7")),
        Case(lines: ["for=203.0.113.7", "for=10.0.0.5;proto=http"], expected: client("203.0.113.7")),
        Case(lines: ["for=\"203.0.113.7\""], expected: client("203.0.113.7")),
        Case(lines: ["for=\"203.0.113.7:4711\""], expected: client("203.0.113.7", port: 4711)),
        Case(lines: ["for=\"203.0.113.7:_abc\""], expected: client("203.0.113.7")),
        Case(lines: ["for=\"[2001:db8::7]:4711\""], expected: client("2001:db8::7", port: 4711)),
        Case(lines: ["for=\"[2001:db8::7]\", for=\"[fd00::5]\""], expected: client("2001:db8::7")),
        // Quoted strings: commas and escaped quotes in them do not end an element.
        Case(lines: ["for=203.0.113.7;host=\"a,b\", for=10.0.0.5"], expected: client("203.0.113.7")),
        Case(lines: ["for=203.0.113.7;ext=\"a\\\"b,c\""], expected: client("203.0.113.7")),
        Case(lines: ["for=203.0.113.7;ext=\"a\\\\\", for=10.0.0.5"], expected: client("203.0.113.7")),
        Case(lines: ["for=\"20\\3.0.113.7\""], expected: client("203.0.113.7")),
        // What a client writes left of its own address is never read, not even an unbalanced quote.
        Case(lines: ["for=198.51.100.1, for=203.0.113.7"], expected: client("203.0.113.7")),
        Case(lines: ["for=\"unbalanced, for=203.0.113.7"], expected: client("203.0.113.7")),
        Case(lines: ["garbage;;=, for=203.0.113.7"], expected: client("203.0.113.7")),
        // Every element trusted: the leftmost.
        Case(lines: ["for=10.0.0.7, for=10.0.0.5"], expected: client("10.0.0.7")),
        Case(lines: [], expected: .absent),
        Case(lines: [" ,"], expected: .absent),
        // Elements the walk reaches that name no client.
        Case(lines: ["for=unknown"], expected: .ignored(.unknown)),
        Case(lines: ["for=\"unknown\""], expected: .ignored(.unknown)),
        Case(lines: ["for=_hidden, for=10.0.0.5"], expected: .ignored(.obfuscated)),
        Case(lines: ["for=\"_hidden:80\""], expected: .ignored(.obfuscated)),
        Case(lines: ["for=\"2001:db8::7\""], expected: .ignored(.malformed)),
        Case(lines: ["for=[2001:db8::7]"], expected: .ignored(.malformed)),
        Case(lines: ["for=203.0.113.7:4711"], expected: .ignored(.malformed)),
        Case(lines: ["proto=https;by=10.0.0.5"], expected: .ignored(.malformed)),
        Case(lines: ["for=203.0.113.7;for=198.51.100.1"], expected: .ignored(.malformed)),
        Case(lines: ["for=203.0.113.7;"], expected: .ignored(.malformed)),
        Case(lines: ["for = 203.0.113.7"], expected: .ignored(.malformed)),
        Case(lines: ["for="], expected: .ignored(.malformed)),
        Case(lines: ["for=\"\""], expected: .ignored(.malformed)),
        Case(lines: ["for=\"203.0.113.7"], expected: .ignored(.malformed)),
        Case(lines: ["for=203.0.113.7\""], expected: .ignored(.malformed)),
        Case(lines: ["for=\"203.0.113.7\"x"], expected: .ignored(.malformed)),
        Case(lines: ["203.0.113.7"], expected: .ignored(.malformed)),
        Case(lines: ["for=client.example.com"], expected: .ignored(.malformed)),
        Case(
            lines: ["for=203.0.113.7, " + (1...16).map { "for=10.0.0.\($0)" }.joined(separator: ", ")],
            expected: .ignored(.tooManyHops)),
        Case(
            lines: ["for=203.0.113.7;ext=\"" + String(repeating: "a", count: 5000) + "\""],
            expected: .ignored(.tooLong)),
    ]

    @Test(arguments: xForwardedForCases)
    func xForwardedFor(_ row: Case) {
        #expect(Self.resolve(row.lines, .xForwardedFor) == row.expected)
    }

    @Test(arguments: forwardedCases)
    func forwarded(_ row: Case) {
        #expect(Self.resolve(row.lines, .forwarded) == row.expected)
    }

    @Test func onlyATrustedConnectionClientsFieldIsReadAndOnlyTheConfiguredField() throws {
        let forwarders = TrustedForwarders(addresses: Self.trusted)
        let fields: HTTPFields = [
            HTTPField.Name("X-Forwarded-For")!: "203.0.113.7", HTTPField.Name("Forwarded")!: "for=198.51.100.1",
        ]
        let proxy = try SocketAddress(ipAddress: "10.0.0.5", port: 40_000)
        let stranger = try SocketAddress(ipAddress: "198.51.100.9", port: 40_000)
        #expect(forwarders.client(in: fields, connectionClient: proxy) == Self.client("203.0.113.7"))
        #expect(forwarders.client(in: fields, connectionClient: stranger) == nil)
        #expect(forwarders.client(in: fields, connectionClient: nil) == nil)
        let standard = TrustedForwarders(addresses: Self.trusted, field: .forwarded)
        #expect(standard.client(in: fields, connectionClient: proxy) == Self.client("198.51.100.1"))
        #expect(TrustedForwarders().client(in: fields, connectionClient: proxy) == nil)
        #expect(TrustedForwarders().isEmpty && !forwarders.isEmpty)
    }

    @Test func theFieldsAreNamedAsWritten() {
        #expect(TrustedForwarders.Field.xForwardedFor.headerName == "X-Forwarded-For")
        #expect(TrustedForwarders.Field.forwarded.headerName == "Forwarded")
        #expect(TrustedForwarders.Field(rawValue: "x-forwarded-for") == .xForwardedFor)
    }
}
