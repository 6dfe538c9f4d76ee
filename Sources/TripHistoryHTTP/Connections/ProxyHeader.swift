import NIOCore

/// The PROXY protocol version 2 header a trusted proxy (haproxy's `send-proxy-v2`) sends before the first
/// byte of a connection's HTTP: the address of the client whose connection the proxy took. Parsed by
/// `parse(_:)`, a pure function of the bytes received so far, which `ProxyProtocolHandler` calls as they
/// arrive.
struct ProxyHeader: Sendable, Equatable {
    /// What the bytes received so far say.
    enum Parse: Sendable, Equatable {
        /// A whole header; the connection's HTTP starts right after it.
        case complete(ProxyHeader)
        /// A valid start of a header: more bytes are needed.
        case incomplete
        /// Not a PROXY protocol version 2 header the service accepts, for the reason given.
        case invalid(String)
    }

    /// The client's address and port for a `PROXY` command over TCP (IPv4 or IPv6); nil for a `LOCAL`
    /// command (the proxy's own connection, such as a health check) or an address family the service does
    /// not count (unspecified, Unix), whose connection keeps the proxy's address.
    var source: SocketAddress?
    /// Bytes the header takes, its TLVs included.
    var length: Int

    /// The 12 bytes every version 2 header starts with: `\r\n\r\n\0\r\nQUIT\n`.
    static let signature: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A]

    /// The longest header accepted, TLVs included. The specification asks senders to send the header in one
    /// segment, and 536 bytes is the smallest TCP segment every IPv4 host accepts, so a conforming sender's
    /// header fits with room for the TLVs haproxy adds; anything longer would let a peer make the server
    /// hold up to 64 KiB before its first request.
    static let maximumLength = 536

    /// Parses the header at the start of `bytes` (which may hold the first bytes of the HTTP that follows):
    /// a signature that differs from its first byte on, a version other than 2, a command other than `LOCAL`
    /// or `PROXY`, a length over `maximumLength` or an inconsistent address block make it invalid as soon as
    /// the bytes that show it have arrived.
    static func parse(_ bytes: ByteBuffer) -> Parse {
        let available = bytes.readableBytesView
        for (offset, byte) in zip(signature.indices, available) where byte != signature[offset] {
            return .invalid("not a PROXY protocol version 2 signature")
        }
        guard available.count >= 16,
            let versionAndCommand = bytes.getInteger(at: bytes.readerIndex + 12, as: UInt8.self),
            let familyAndTransport = bytes.getInteger(at: bytes.readerIndex + 13, as: UInt8.self),
            let addressLength = bytes.getInteger(at: bytes.readerIndex + 14, as: UInt16.self)
        else { return .incomplete }
        guard versionAndCommand >> 4 == 2 else { return .invalid("PROXY protocol version \(versionAndCommand >> 4)") }
        let length = 16 + Int(addressLength)
        guard length <= maximumLength else {
            return .invalid("a PROXY header of \(length) bytes, over the limit of \(maximumLength)")
        }
        let isProxy: Bool
        switch versionAndCommand & 0x0F {
        case 0x0: isProxy = false
        case 0x1: isProxy = true
        default: return .invalid("PROXY protocol command \(versionAndCommand & 0x0F)")
        }
        guard available.count >= length else { return .incomplete }
        guard isProxy else { return .complete(ProxyHeader(source: nil, length: length)) }
        let family = familyAndTransport >> 4
        let transport = familyAndTransport & 0x0F
        let addresses = bytes.readerIndex + 16
        switch family {
        case 0x1, 0x2:
            // Source and destination address, then source and destination port.
            let addressBytes = family == 0x1 ? 4 : 16
            guard transport == 0x1 else { return .invalid("a PROXY header for a transport other than TCP") }
            guard Int(addressLength) >= 2 * addressBytes + 4,
                let source = bytes.getSlice(at: addresses, length: addressBytes),
                let port = bytes.getInteger(at: addresses + 2 * addressBytes, as: UInt16.self),
                let address = try? SocketAddress(packedIPAddress: source, port: Int(port))
            else { return .invalid("a PROXY header whose address block is too short for its family") }
            return .complete(ProxyHeader(source: address, length: length))
        default:
            // Unspecified or Unix: the specification lets the receiver keep the connection's own addresses.
            return .complete(ProxyHeader(source: nil, length: length))
        }
    }

}
