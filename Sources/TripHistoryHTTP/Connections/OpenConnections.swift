import NIOCore
import Synchronization
import TripHistoryAPI

/// The connections a server has open, in all and per client address, shared by all its connections' guards.
public final class OpenConnections: Sendable {
    private struct State {
        var open = 0
        var byAddress: [RateLimitKey: Int] = [:]
    }

    /// Connections allowed at once.
    public let capacity: Int
    /// Connections allowed at once from one client address (an IPv4 address or an IPv6 /64).
    public let perAddress: Int
    private let state = Mutex(State())

    public init(capacity: Int, perAddress: Int = .max) {
        self.capacity = max(capacity, 1)
        self.perAddress = max(perAddress, 1)
    }

    /// Counts a new connection from `address` in and returns its key for `release`, or returns nil without
    /// counting it when all connections, or, with `perAddressCap`, all of that address's, are taken.
    func admit(from address: SocketAddress?, perAddressCap: Bool = true) -> RateLimitKey? {
        let key = RateLimitKey(address: address)
        return state.withLock { state in
            let fromAddress = state.byAddress[key, default: 0]
            guard state.open < capacity, !perAddressCap || fromAddress < perAddress else { return nil }
            state.open += 1
            state.byAddress[key] = fromAddress + 1
            return key
        }
    }

    /// Counts an admitted connection out.
    func release(_ key: RateLimitKey) {
        state.withLock { state in
            state.open -= 1
            let fromAddress = state.byAddress[key, default: 1] - 1
            state.byAddress[key] = fromAddress > 0 ? fromAddress : nil
        }
    }

    /// Connections open right now.
    public var count: Int { state.withLock { $0.open } }
}
