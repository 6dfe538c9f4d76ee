import Synchronization

/// Bounds how many exports stream at once: each holds a client connection and runs a query per batch for as
/// long as the client reads, so a few concurrent ones can already load the database.
public final class ExportSlots: Sendable {
    /// Exports allowed at once, at least one.
    public let capacity: Int
    private let inUse = Mutex(0)

    public init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// A slot held until the returned value is released (dropped), or nil when all are taken. Tying the slot
    /// to an object's lifetime frees it on every path, also when a response is dropped before its body runs.
    func acquire() -> Slot? {
        let acquired = inUse.withLock { count in
            guard count < capacity else { return false }
            count += 1
            return true
        }
        return acquired ? Slot(owner: self) : nil
    }

    /// Exports streaming right now.
    public var active: Int { inUse.withLock { $0 } }

    fileprivate func release() {
        inUse.withLock { $0 -= 1 }
    }

    /// One taken slot; releasing the last reference gives it back.
    final class Slot: Sendable {
        private let owner: ExportSlots

        fileprivate init(owner: ExportSlots) {
            self.owner = owner
        }

        deinit {
            owner.release()
        }
    }
}
