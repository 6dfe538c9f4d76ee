import NIOCore
import Synchronization

/// The address of the client behind one connection, the one every per-client limit counts under (the
/// connection cap of `OpenConnections`, the anonymous rate limit): the connection's peer, or, for a peer
/// that is a trusted proxy, the source its PROXY header names (`ProxyProtocolHandler` sets it before any
/// of the connection's HTTP is decoded, so every request of the connection sees the final value).
///
/// Shared by the connection's handlers and, through `current`, by the requests the router answers on it.
final class ClientAddress: Sendable {
    private let value: Mutex<SocketAddress?>

    /// The connection's client while its requests are answered: set by the server around the handling of
    /// each connection, so the request context finds it. Nil outside a connection (router tests).
    @TaskLocal static var current: ClientAddress?

    init(_ address: SocketAddress?) {
        value = Mutex(address)
    }

    /// The client's address; nil when the socket has none.
    var address: SocketAddress? { value.withLock { $0 } }

    /// Replaces the peer with the client a trusted proxy named.
    func set(_ address: SocketAddress?) {
        value.withLock { $0 = address }
    }
}
