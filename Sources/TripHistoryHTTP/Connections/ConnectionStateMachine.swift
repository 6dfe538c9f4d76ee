import Foundation
import NIOCore
import TripHistoryAPI

/// Every decision the connection's guards take, as one value: each method takes an event (bytes read, a request
/// part decoded, a response written, the writability changing, the timer firing) and returns what to do.
/// `ConnectionGuard` (the bytes, the cap and the timer) and `RequestGuard` (requests, responses and refusals)
/// only perform the actions, so the rules are unit-tested without a channel.
///
/// Times are counts of the connection timer's ticks (a quarter of the shortest timeout, `ConnectionLimits.tick`),
/// so recording one costs a store, never a clock read or a timer of its own.
struct ConnectionStateMachine {
    /// The limits in ticks and bytes.
    struct Limits {
        let headTicks: Int
        let idleTicks: Int
        let bodyTicks: Int
        let bodyDeadlineTicks: Int
        let writeTicks: Int
        /// Bytes a client must take per write window (`writeTimeout`) while it holds a response back.
        let minimumBytesPerWindow: Int
        /// A request line longer than this holds a target over the limit whatever its method.
        let maximumRequestLine: Int
        let maximumTargetBytes: Int

        init(_ limits: ConnectionLimits) {
            headTicks = limits.ticks(limits.headTimeout)
            idleTicks = limits.ticks(limits.idleTimeout)
            bodyTicks = limits.ticks(limits.bodyTimeout)
            bodyDeadlineTicks = limits.ticks(limits.bodyDeadline)
            writeTicks = limits.ticks(limits.writeTimeout)
            let windowMilliseconds = Int(limits.writeTimeout.nanoseconds / 1_000_000)
            minimumBytesPerWindow = max(1, limits.minimumWriteRate * windowMilliseconds / 1000)
            maximumRequestLine = limits.maximumTargetBytes + 32
            maximumTargetBytes = limits.maximumTargetBytes
        }
    }

    /// What `ConnectionGuard` does with bytes that arrived.
    enum BytesAction: Equatable {
        /// Pass them on.
        case pass
        /// Drop them: the connection is being refused.
        case drop
        /// Drop them and raise `refusal`, which `RequestGuard` answers.
        case raise(ConnectionRefusal)
    }

    /// What `RequestGuard` does with a decoded request part.
    enum PartAction: Equatable {
        /// Pass it on.
        case pass
        /// Drop it: the connection is being refused.
        case drop
        /// Drop it and write `problem` now, then close.
        case refuse(Problem)
    }

    /// What to do when the timer fires.
    enum TimerAction: Equatable {
        /// Nothing: tick again.
        case tick
        /// Raise `refusal` (answered by `RequestGuard`) and tick again.
        case raise(ConnectionRefusal)
        /// Close the connection, for `reason`; no more ticks.
        case close(CloseReason)
    }

    enum CloseReason: Equatable {
        /// The client took less of a held-back response than the minimum rate allows.
        case slowReader
        /// The request body went `bodyTimeout` without a byte.
        case bodyStalled
        /// The request body is still incomplete `bodyDeadline` after its head.
        case bodyIncomplete
        /// No request came within the idle timeout (the head timeout before the first).
        case idle
        /// A refusal was written and the client did not close its side.
        case refused
    }

    /// Where the connection stands with refusals.
    private enum Refusal: Equatable {
        case none
        /// `ConnectionGuard` raised one that `RequestGuard` has not taken up yet: input is dropped.
        case raised
        /// Being answered; `pending` waits for the responses in flight, in their order.
        case answering(pending: Problem?)
    }

    let limits: Limits
    /// Ticks of the connection's timer so far.
    private var now = 0
    /// Requests passed on whose response has not been completely written.
    private var inFlight = 0
    /// Whether a request's head arrived and its end has not.
    private var readingBody = false
    /// When a byte of the request body last arrived, while `readingBody`.
    private var lastBodyRead = 0
    /// When the head of the request whose body is being read was decoded, while `readingBody`.
    private var bodyStarted = 0
    /// When the first byte of a head not yet decoded arrived; nil when none is pending.
    private var headStarted: Int?
    /// Bytes of the pending head's request line seen so far, while its end has not been seen.
    private var requestLineBytes = 0
    /// Whether the pending head's request line has ended (or is not being measured).
    private var requestLineEnded = true
    /// When the connection last had no request in progress: its opening, or its last response's end.
    private var idleSince = 0
    /// Whether a response was completed, so the next head is waited for with the idle timeout.
    private var servedOne = false
    /// Since when the channel refuses more writes because the client does not read; nil while writable.
    private var unwritableSince: Int?
    /// Bytes waiting to be written at the last tick, while the channel is unwritable.
    private var bufferedAtLastTick = Int.max
    /// Bytes the client took since the current write window began, while the channel is unwritable.
    private var drainedInWindow = 0
    private var refusal = Refusal.none

    init(limits: ConnectionLimits) {
        self.limits = Limits(limits)
    }

    /// Whether the connection is being refused (its input is dropped).
    var isRefusing: Bool { refusal != .none }

    /// Bytes arrived from the client (before the HTTP decoder).
    mutating func bytesRead(_ buffer: ByteBuffer) -> BytesAction {
        guard refusal == .none else { return .drop }
        if readingBody {
            lastBodyRead = now
        } else if headStarted == nil {
            headStarted = now
            requestLineBytes = 0
            requestLineEnded = false
        }
        if !requestLineEnded {
            measureRequestLine(buffer)
            if requestLineBytes > limits.maximumRequestLine {
                refusal = .raised
                return .raise(.targetTooLong)
            }
        }
        return .pass
    }

    /// The connection may not be counted in: the server, or the client's address, is at its cap. Nil when a
    /// refusal is already under way.
    mutating func capReached() -> ConnectionRefusal? {
        guard refusal == .none else { return nil }
        refusal = .raised
        return .tooManyConnections
    }

    /// The decoder read a request's head, whose target has `targetBytes` bytes (nil: no path).
    mutating func headDecoded(targetBytes: Int?) -> PartAction {
        guard refusal == .none else { return .drop }
        headStarted = nil
        requestLineEnded = true
        if let targetBytes, targetBytes > limits.maximumTargetBytes {
            return refuse(.uriTooLong(limit: limits.maximumTargetBytes)).map(PartAction.refuse) ?? .drop
        }
        inFlight += 1
        readingBody = true
        lastBodyRead = now
        bodyStarted = now
        return .pass
    }

    /// The decoder read a part of a request's body.
    func bodyDecoded() -> PartAction {
        refusal == .none ? .pass : .drop
    }

    /// The decoder read a request's end.
    mutating func endDecoded() -> PartAction {
        guard refusal == .none else { return .drop }
        readingBody = false
        return .pass
    }

    /// A response's end was written; returns a refusal that was waiting for it, to write now.
    mutating func responseEnded() -> Problem? {
        inFlight -= 1
        guard inFlight == 0 else { return nil }
        idleSince = now
        servedOne = true
        if case .answering(let pending?) = refusal {
            refusal = .answering(pending: nil)
            return pending
        }
        return nil
    }

    /// Answers the connection with `problem` and closes it: returns the problem to write now, or nil when it
    /// waits for the responses in flight (`responseEnded()` hands it back) or a refusal is already answered.
    mutating func refuse(_ problem: Problem) -> Problem? {
        if case .answering = refusal { return nil }
        readingBody = false
        guard inFlight == 0 else {
            refusal = .answering(pending: problem)
            return nil
        }
        refusal = .answering(pending: nil)
        return problem
    }

    /// The client closed its side of the connection; true when the connection should close now: it is
    /// refused and every response before the refusal is written, so the refusal is not lost to a reset.
    func inputClosed() -> Bool {
        refusal != .none && inFlight == 0
    }

    /// The channel turned writable, or unwritable because the client does not read.
    mutating func writabilityChanged(writable: Bool) {
        unwritableSince = writable ? nil : now
        bufferedAtLastTick = .max
        drainedInWindow = 0
    }

    /// The timer fired; `bufferedBytes` reads the bytes waiting to be written (only while unwritable).
    mutating func timerFired(bufferedBytes: @autoclosure () -> Int) -> TimerAction {
        now += 1
        if let since = unwritableSince {
            // While the client holds the response back, each window of `writeTimeout` it must take at least
            // the minimum rate's worth: one that reads nothing, or a few bytes at a time, is cut. The channel
            // turns writable only after the client took the gap between the write buffer's watermarks, so a
            // client slow enough to matter stays unwritable for whole windows.
            let buffered = bufferedBytes()
            if bufferedAtLastTick != .max, buffered < bufferedAtLastTick {
                drainedInWindow += bufferedAtLastTick - buffered
            }
            bufferedAtLastTick = buffered
            if now - since > limits.writeTicks {
                guard drainedInWindow >= limits.minimumBytesPerWindow else { return .close(.slowReader) }
                unwritableSince = now
                drainedInWindow = 0
            }
        }
        if refusal != .none {
            // The refusal is written once earlier responses are; the connection stays until then.
            return inFlight == 0 && now - idleSince > limits.headTicks ? .close(.refused) : .tick
        }
        if readingBody {
            if now - lastBodyRead > limits.bodyTicks { return .close(.bodyStalled) }
            if now - bodyStarted > limits.bodyDeadlineTicks { return .close(.bodyIncomplete) }
        } else if inFlight == 0 {
            if let headStarted {
                if now - max(headStarted, idleSince) > limits.headTicks {
                    refusal = .raised
                    return .raise(.headTimeout)
                }
            } else if now - idleSince > (servedOne ? limits.idleTicks : limits.headTicks) {
                return .close(.idle)
            }
        }
        return .tick
    }

    /// Counts the bytes of a head's first line, up to its line feed, found with `memchr` since it is searched
    /// on every request.
    private mutating func measureRequestLine(_ buffer: ByteBuffer) {
        let lineFeedAt: Int? = buffer.withUnsafeReadableBytes { bytes in
            guard let base = bytes.baseAddress, let found = memchr(base, 0x0A, bytes.count) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
        if let lineFeedAt {
            requestLineBytes += lineFeedAt
            requestLineEnded = true
        } else {
            requestLineBytes += buffer.readableBytes
        }
    }
}

/// The connection's state machine, shared by its two guards on the connection's event loop.
final class SharedConnectionState {
    var machine: ConnectionStateMachine

    init(limits: ConnectionLimits) {
        machine = ConnectionStateMachine(limits: limits)
    }
}

@available(*, unavailable)
extension SharedConnectionState: Sendable {}

/// What `ConnectionGuard` asks `RequestGuard` to answer on the connection before closing it.
enum ConnectionRefusal: Sendable, Equatable {
    /// The server is at its connection cap: 503.
    case tooManyConnections
    /// The request head did not arrive in time: 408.
    case headTimeout
    /// The request line is longer than the target limit: 414.
    case targetTooLong
}
