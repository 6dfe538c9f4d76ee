import Synchronization

/// Bounds how many operations of one kind run at once, in all and per caller: an export holds a client
/// connection and runs a query per batch for as long as the client reads, and a stats query holds an analyst
/// connection, so a few at once can already load the database, and one analyst must not take every slot.
public final class ConcurrencySlots: Sendable {
    /// Why a slot was refused.
    public enum Refusal: Error, Sendable, Equatable {
        /// Every slot is taken.
        case full
        /// The caller holds `perCaller` slots already.
        case callerBusy
    }

    private struct State {
        var inUse = 0
        var byCaller: [RateLimitKey: Int] = [:]
    }

    /// Operations allowed at once, at least one.
    public let capacity: Int
    /// Operations one caller may run at once, at least one.
    public let perCaller: Int
    private let state = Mutex(State())

    public init(capacity: Int, perCaller: Int) {
        self.capacity = max(capacity, 1)
        self.perCaller = max(perCaller, 1)
    }

    /// A slot of `caller` held until the returned value is released (dropped), or why there is none. Tying the
    /// slot to an object's lifetime frees it on every path, also when a response is dropped before its body
    /// runs.
    func acquire(for caller: RateLimitKey) -> Result<Slot, Refusal> {
        let refusal = state.withLock { state -> Refusal? in
            let held = state.byCaller[caller, default: 0]
            guard held < perCaller else { return .callerBusy }
            guard state.inUse < capacity else { return .full }
            state.inUse += 1
            state.byCaller[caller] = held + 1
            return nil
        }
        if let refusal { return .failure(refusal) }
        return .success(Slot(owner: self, caller: caller))
    }

    /// Operations running right now.
    public var active: Int { state.withLock { $0.inUse } }

    fileprivate func release(_ caller: RateLimitKey) {
        state.withLock { state in
            state.inUse -= 1
            let held = state.byCaller[caller, default: 1] - 1
            state.byCaller[caller] = held > 0 ? held : nil
        }
    }

    /// One taken slot; releasing the last reference gives it back.
    final class Slot: Sendable {
        private let owner: ConcurrencySlots
        private let caller: RateLimitKey

        fileprivate init(owner: ConcurrencySlots, caller: RateLimitKey) {
            self.owner = owner
            self.caller = caller
        }

        deinit {
            owner.release(caller)
        }
    }
}
