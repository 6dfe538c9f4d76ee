public import NIOCore
public import TripHistoryDomain

/// Whose bucket a request is counted in: a caller with a valid token by subject and role, anyone else by
/// client address.
public enum RateLimitKey: Hashable, Sendable {
    case rider(RiderID)
    case analyst(String)
    case service(String)
    case privacy(String)
    /// A client address: an IPv4 address, or the /64 prefix of an IPv6 one (one host usually holds a whole
    /// /64, so counting its addresses apart would multiply its limit).
    case address(UInt64)

    /// A well-mixed number to pick the key's shard with; cheaper than `hashValue` for the common keys.
    var shardHash: UInt {
        switch self {
        // Fibonacci hashing: the high bits of the product spread consecutive ids.
        case .rider(let riderID):
            return UInt(truncatingIfNeeded: UInt64(bitPattern: riderID.rawValue) &* 0x9E37_79B9_7F4A_7C15) >> 32
        case .address(let address): return UInt(truncatingIfNeeded: address &* 0x9E37_79B9_7F4A_7C15) >> 32
        case .analyst, .service, .privacy: return UInt(bitPattern: hashValue)
        }
    }

    /// The bucket of a caller with a valid token.
    public init(_ caller: Caller) {
        switch caller {
        case .rider(let riderID): self = .rider(riderID)
        case .analyst(let subject): self = .analyst(subject)
        case .service(let subject): self = .service(subject)
        case .privacy(let subject): self = .privacy(subject)
        }
    }

    /// The bucket of a client address; an IPv4-mapped IPv6 address counts as its IPv4 address, and an unknown
    /// or Unix socket address shares one bucket.
    public init(address: SocketAddress?) {
        switch address {
        case .v4(let address):
            // sockaddr_in: family and port (4 bytes), then the address in network order.
            let ipv4 = withUnsafeBytes(of: address.address) { $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self) }
            self = .address(UInt64(UInt32(bigEndian: ipv4)))
        case .v6(let address):
            // sockaddr_in6: family, port and flow label (8 bytes), then the address in network order.
            let (high, low) = withUnsafeBytes(of: address.address) { bytes in
                (
                    UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
                    UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
                )
            }
            // ::ffff:a.b.c.d, what a dual-stack listener reports for an IPv4 client.
            if high == 0, low >> 32 == 0xffff {
                self = .address(low & 0xffff_ffff)
            } else {
                // IPv6 prefixes never fall in the 32-bit range IPv4 addresses take (0000::/32 is reserved).
                self = .address(high)
            }
        case .unixDomainSocket, nil:
            self = .address(UInt64.max)
        }
    }
}
