import HTTPTypes
import NIOCore

/// The forwarders in front of the service that name each request's client in an HTTP field: a cloud load
/// balancer or an ingress controller, which speak plain HTTP and add `X-Forwarded-For` (or RFC 7239's
/// `Forwarded`) rather than a PROXY protocol header. None by default, and then no field is read.
///
/// A request's field is read only when its connection's client (the peer, or the source a trusted proxy's
/// PROXY header named) is one of `addresses`, and only the one field `field` the forwarders write: a forwarder
/// that writes one passes the other on as the client sent it, so reading both would let a client pick its
/// address. The client is the rightmost entry that is not itself one of `addresses` (`ForwardedChain`).
public struct TrustedForwarders: Sendable, Equatable {
    /// The field the forwarders write the client in.
    public enum Field: String, Sendable, CaseIterable {
        /// `X-Forwarded-For: 203.0.113.7, 10.0.0.5`, what cloud load balancers and ingress controllers add.
        case xForwardedFor = "x-forwarded-for"
        /// RFC 7239's `Forwarded: for=203.0.113.7;proto=https, for=10.0.0.5`.
        case forwarded

        /// The field's name as written: `X-Forwarded-For` or `Forwarded`.
        public var headerName: String { name.rawName }

        /// The field's name.
        var name: HTTPField.Name {
            switch self {
            case .xForwardedFor: Self.xForwardedForName
            case .forwarded: Self.forwardedName
            }
        }

        private static let xForwardedForName = HTTPField.Name("X-Forwarded-For")!
        private static let forwardedName = HTTPField.Name("Forwarded")!
    }

    /// The forwarders' addresses and ranges; also the hops the walk from the right skips.
    public let addresses: TrustedProxies
    /// The one field read.
    public let field: Field

    /// Trusts no forwarder: no field is read.
    public init() {
        self.init(addresses: TrustedProxies())
    }

    /// Trusts the forwarders at `addresses`, which write the client in `field`.
    public init(addresses: TrustedProxies, field: Field = .xForwardedFor) {
        self.addresses = addresses
        self.field = field
    }

    /// Whether no forwarder is trusted.
    public var isEmpty: Bool { addresses.isEmpty }

    /// The client the request's `fields` name, for a request whose connection's client is `connectionClient`;
    /// nil when that is not a trusted forwarder, whose fields are not read at all.
    func client(in fields: HTTPFields, connectionClient: SocketAddress?) -> ForwardedChain.Resolution? {
        guard addresses.contains(connectionClient) else { return nil }
        return ForwardedChain.client(in: fields[values: field.name], field: field, trusted: addresses)
    }
}
