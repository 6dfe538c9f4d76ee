public import NIOCore

/// The addresses of trusted proxies: single addresses and CIDR ranges, IPv4 and IPv6. Two lists of them are
/// configured apart: the proxies whose connections start with a PROXY protocol header naming the client
/// (`ProxyProtocolHandler`), and the forwarders whose `X-Forwarded-For` or `Forwarded` names it
/// (`TrustedForwarders`). Empty (the default) trusts none, so every connection's client is its peer and a PROXY
/// header is just a malformed request.
public struct TrustedProxies: Sendable, Equatable {
    /// An address range: the first `prefixLength` bits of `bytes` (4 bytes for IPv4, 16 for IPv6).
    struct Range: Sendable, Equatable {
        let bytes: [UInt8]
        let prefixLength: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var remaining = prefixLength
            for (mine, theirs) in zip(bytes, address) where remaining > 0 {
                let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
                if mine & mask != theirs & mask { return false }
                remaining -= 8
            }
            return true
        }
    }

    /// Why an entry is not an address or a range.
    public struct InvalidEntry: Error, Equatable {
        public let entry: String
    }

    let ranges: [Range]
    /// The entries as configured, to show the configuration.
    public let entries: [String]

    /// Trusts no proxy.
    public init() {
        ranges = []
        entries = []
    }

    /// Trusts each of `entries`: an address (`10.0.0.5`, `fd00::5`) or a range in CIDR notation
    /// (`10.0.0.0/8`, `fd00::/8`); an IPv4-mapped IPv6 address counts as its IPv4 address. Throws
    /// `InvalidEntry` for the first entry that is neither.
    public init(_ entries: [String]) throws(InvalidEntry) {
        var ranges: [Range] = []
        for entry in entries {
            guard let range = Self.range(entry) else { throw InvalidEntry(entry: entry) }
            ranges.append(range)
        }
        self.ranges = ranges
        self.entries = entries
    }

    /// Whether no proxy is trusted.
    public var isEmpty: Bool { ranges.isEmpty }

    /// Whether `address`, a connection's peer, is a trusted proxy's.
    public func contains(_ address: SocketAddress?) -> Bool {
        guard !ranges.isEmpty, let bytes = address.flatMap(Self.bytes(of:)) else { return false }
        return ranges.contains { $0.contains(bytes) }
    }

    private static func range(_ entry: String) -> Range? {
        let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = try? SocketAddress(ipAddress: String(parts[0]), port: 0),
            let bytes = bytes(of: address)
        else { return nil }
        // A mapped IPv6 range is written over 128 bits; its IPv4 part is the last 32 of them.
        let mappedOffset = address.protocol == .inet6 && bytes.count == 4 ? 96 : 0
        var prefixLength = bytes.count * 8
        if parts.count == 2 {
            guard let length = Int(parts[1]), parts[1].allSatisfy(\.isNumber),
                (0...(bytes.count * 8 + mappedOffset)).contains(length), length >= mappedOffset
            else { return nil }
            prefixLength = length - mappedOffset
        }
        return Range(bytes: bytes, prefixLength: prefixLength)
    }

    /// The address's bytes in network order: 4 for IPv4 and for an IPv4-mapped IPv6 address (what a
    /// dual-stack listener reports for an IPv4 peer), 16 for any other IPv6 address; nil for a Unix socket.
    static func bytes(of address: SocketAddress) -> [UInt8]? {
        switch address {
        case .v4(let address):
            // sockaddr_in: family and port (4 bytes), then the address.
            return withUnsafeBytes(of: address.address) { Array($0[4..<8]) }
        case .v6(let address):
            // sockaddr_in6: family, port and flow label (8 bytes), then the address.
            let bytes = withUnsafeBytes(of: address.address) { Array($0[8..<24]) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                return Array(bytes[12...])
            }
            return bytes
        case .unixDomainSocket:
            return nil
        }
    }
}
