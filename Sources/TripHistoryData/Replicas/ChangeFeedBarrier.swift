import Synchronization

/// Proves that this instance's change listener has received every notification committed before a call
/// began: `pass()` has a token NOTIFYed on a channel only this instance listens to and waits until the
/// listener reports it (`received(_:)`). PostgreSQL delivers notifications in commit order, so by then every
/// trip committed (and acknowledged by any instance) before the call began has been announced here.
///
/// Calls are batched: at most one token is being sent at a time, and calls that arrive meanwhile share the
/// next one, which is sent only after they arrived. A token not reported within `timeout`, a failed send, or
/// a lost feed (`fail()`) answers false: the caller must then assume it does not know every write.
final class ChangeFeedBarrier: Sendable {
    private struct Waiter {
        let token: UInt64
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var lastToken: UInt64 = 0
        /// The token calls join while one is being sent; it is sent when that send completes.
        var pending: UInt64?
        var sending = false
        var waiters: [Waiter] = []
    }

    private let state = Mutex(State())
    private let timeout: Duration
    private let send: @Sendable (UInt64) async throws -> Void

    /// `send` NOTIFYs the token (in decimal) on the listener's barrier channel and returns once committed.
    init(timeout: Duration, send: @escaping @Sendable (UInt64) async throws -> Void) {
        self.timeout = timeout
        self.send = send
    }

    /// True once the listener reported a token sent after this call began; false on timeout or failure.
    func pass() async -> Bool {
        await withCheckedContinuation { continuation in
            let issue: UInt64? = state.withLock { state in
                if let pending = state.pending {
                    state.waiters.append(Waiter(token: pending, continuation: continuation))
                    return nil
                }
                state.lastToken += 1
                let token = state.lastToken
                state.waiters.append(Waiter(token: token, continuation: continuation))
                if state.sending {
                    state.pending = token
                    return nil
                }
                state.sending = true
                return token
            }
            if let issue { Task { await self.issue(issue) } }
        }
    }

    /// The listener received `payload` on the barrier channel.
    func received(_ payload: String) {
        guard let token = UInt64(payload) else { return }
        finish(upTo: token, passed: true)
    }

    /// The listener lost its connection: no waiting call can be proven to have seen every write.
    func fail() {
        finish(upTo: .max, passed: false)
    }

    private func issue(_ first: UInt64) async {
        var token = first
        while true {
            let expiring = token
            let timeout = self.timeout
            Task {
                try? await Task.sleep(for: timeout)
                self.finish(upTo: expiring, passed: false)
            }
            do {
                try await send(token)
            } catch {
                finish(upTo: token, passed: false)
            }
            let next: UInt64? = state.withLock { state in
                guard let pending = state.pending else {
                    state.sending = false
                    return nil
                }
                state.pending = nil
                return pending
            }
            guard let next else { return }
            token = next
        }
    }

    private func finish(upTo token: UInt64, passed: Bool) {
        let done: [Waiter] = state.withLock { state in
            guard state.waiters.contains(where: { $0.token <= token }) else { return [] }
            let done = state.waiters.filter { $0.token <= token }
            state.waiters.removeAll { $0.token <= token }
            return done
        }
        for waiter in done { waiter.continuation.resume(returning: passed) }
    }
}
