/// The early-read handler's decisions, as one value (as in swift-nio's `HTTPServerPipelineHandler`): each
/// method takes an event (a request part arrived, a computation ended, the channel asked for a read, a
/// response's end was written) and returns what to do, so responses keep their order whoever answers them.
/// While a request passed on is unanswered, later requests are passed on too; while a computation runs, later
/// parts are held (and the socket is left alone once `heldPartsBeforeBackPressure` are).
///
/// Generic over what it carries (an answer to write, a computation to start, a part to hold), so its rules are
/// unit-tested without a channel.
struct EarlyReadStateMachine<Answer, Computation, Part> {
    /// What the handler is doing with the connection's current request.
    enum State {
        /// Between requests, with every request passed on answered: the next head may be answered here.
        case idle
        /// A head answered from memory; the answer is written when the request's end arrives.
        case answering(Answer)
        /// A head to be computed here; the computation starts when the request's end arrives.
        case awaitingEnd(Computation)
        /// A computation is running; the parts that arrived since are held, in order, and `readDeferred` says
        /// whether a socket read was put off because too many are.
        case computing(held: [Part], readDeferred: Bool)
        /// Requests passed on whose responses are not yet completely written (`unanswered`), and whether the
        /// parts of one are still arriving (`receiving`).
        case passingOn(unanswered: Int, receiving: Bool)
    }

    /// How the handler would answer a head that arrives between requests.
    enum HeadOutcome {
        /// Write `Answer` once the request ends.
        case answer(Answer)
        /// Start `Computation` once the request ends.
        case compute(Computation)
        /// Pass the request on to the router.
        case passOn
    }

    /// What to do with a request part that arrived.
    enum Action {
        /// Pass it on to the router.
        case passOn
        /// Nothing now: it is held behind a computation, or its request is answered when it ends.
        case none
        /// Write the answer of the request that ended.
        case write(Answer)
        /// Start the computation of the request that ended.
        case start(Computation)
        /// Close the connection: the decoder never sends parts in this order.
        case close
    }

    let heldPartsBeforeBackPressure: Int
    private(set) var state = State.idle

    init(heldPartsBeforeBackPressure: Int) {
        self.heldPartsBeforeBackPressure = heldPartsBeforeBackPressure
    }

    /// A head arrived; `outcome` says how it would be answered and is asked only when it may be answered here.
    mutating func head(_ part: Part, outcome: () -> HeadOutcome) -> Action {
        if hold(part) { return .none }
        switch state {
        case .idle:
            switch outcome() {
            case .answer(let answer): state = .answering(answer)
            case .compute(let computation): state = .awaitingEnd(computation)
            case .passOn:
                state = .passingOn(unanswered: 1, receiving: true)
                return .passOn
            }
            return .none
        case .passingOn(let unanswered, _):
            state = .passingOn(unanswered: unanswered + 1, receiving: true)
            return .passOn
        case .answering, .awaitingEnd, .computing:
            return .close
        }
    }

    /// A part of a request's body arrived.
    mutating func body(_ part: Part) -> Action {
        if hold(part) { return .none }
        if case .passingOn = state { return .passOn }
        // A request answered here has no body.
        return .close
    }

    /// A request's end arrived.
    mutating func end(_ part: Part) -> Action {
        if hold(part) { return .none }
        switch state {
        case .passingOn(let unanswered, true):
            // The router may have answered before the request ended (an early refusal).
            state = unanswered == 0 ? .idle : .passingOn(unanswered: unanswered, receiving: false)
            return .passOn
        case .answering(let answer):
            state = .idle
            return .write(answer)
        case .awaitingEnd(let computation):
            state = .computing(held: [], readDeferred: false)
            return .start(computation)
        case .idle, .passingOn(_, false), .computing:
            return .close
        }
    }

    /// The computation ended: returns the parts held meanwhile, to receive again in order, and whether a read
    /// was put off (`resumeRead()` says whether to read once they are received); nil when none was running.
    mutating func computed() -> (held: [Part], readDeferred: Bool)? {
        guard case .computing(let held, let readDeferred) = state else { return nil }
        state = .idle
        return (held, readDeferred)
    }

    /// After the held parts of a computation that had put a read off were received again: true to read now,
    /// false when they started another computation, which then keeps the read put off.
    mutating func resumeRead() -> Bool {
        guard case .computing(let held, _) = state else { return true }
        state = .computing(held: held, readDeferred: true)
        return false
    }

    /// The channel asks for a socket read: false to put it off, since too many parts are held.
    mutating func readRequested() -> Bool {
        guard case .computing(let held, _) = state, held.count >= heldPartsBeforeBackPressure else { return true }
        state = .computing(held: held, readDeferred: true)
        return false
    }

    /// The router wrote a response's end.
    mutating func responseEndWritten() {
        if case .passingOn(let unanswered, let receiving) = state {
            state = unanswered == 1 && !receiving ? .idle : .passingOn(unanswered: unanswered - 1, receiving: receiving)
        }
    }

    /// Holds `part` behind a running computation; false when none runs.
    private mutating func hold(_ part: Part) -> Bool {
        guard case .computing(var held, let readDeferred) = state else { return false }
        // Moves the array out of the state first, so appending does not copy it.
        state = .idle
        held.append(part)
        state = .computing(held: held, readDeferred: readDeferred)
        return true
    }
}
