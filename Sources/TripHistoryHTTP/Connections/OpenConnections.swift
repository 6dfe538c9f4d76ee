import Synchronization

/// The connections a server has open, shared by all its connections' guards.
public final class OpenConnections: Sendable {
    /// Connections allowed at once.
    public let capacity: Int
    private let open = Mutex(0)

    public init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// Counts a new connection in and returns true, or returns false without counting it when all are taken.
    func admit() -> Bool {
        open.withLock { count in
            guard count < capacity else { return false }
            count += 1
            return true
        }
    }

    /// Counts an admitted connection out.
    func release() {
        open.withLock { $0 -= 1 }
    }

    /// Connections open right now.
    public var count: Int { open.withLock { $0 } }
}
