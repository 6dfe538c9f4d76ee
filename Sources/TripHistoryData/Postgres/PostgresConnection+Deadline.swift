internal import CLibPQ
import Foundation
import NIOConcurrencyHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension PostgresConnection {
    /// Refuses to start a statement on a connection that was given up on.
    func startExchange() throws(PostgresError) {
        guard !isAbandoned else {
            throw PostgresError(kind: .connectionLost, message: "the connection was given up after a query timeout")
        }
    }

    /// Completes a statement whose `PQsend*` call returned `sent`: flushes it, then awaits its results and
    /// returns the one `PQexec` would (the first error, else the last result; a COPY state at once), owned by
    /// the caller. Nil with the error on the connection when sending failed.
    func finishExchange(sent: Int32) throws(PostgresError) -> OpaquePointer? {
        guard sent == 1 else { return nil }
        try flush()
        var kept: OpaquePointer?
        do {
            while let result = try nextResult() {
                let status = PQresultStatus(result)
                if status == PGRES_COPY_IN || status == PGRES_COPY_OUT || status == PGRES_COPY_BOTH {
                    if let kept { PQclear(kept) }
                    return result
                }
                if let previous = kept, PQresultStatus(previous) == PGRES_FATAL_ERROR {
                    PQclear(result)
                } else {
                    if let kept { PQclear(kept) }
                    kept = result
                }
            }
        } catch {
            if let kept { PQclear(kept) }
            throw error
        }
        return kept
    }

    /// Sends what libpq still buffers, waiting for the socket to take it no longer than `queryTimeout`.
    func flush() throws(PostgresError) {
        var deadline: ContinuousClock.Instant?
        while true {
            let pending = PQflush(handle)
            if pending == 0 { return }
            // A failed flush leaves the error on the connection; the next result reports it.
            guard pending == 1 else { return }
            if deadline == nil, let queryTimeout { deadline = .now + queryTimeout }
            try waitForSocket(Int16(POLLIN | POLLOUT), until: deadline)
            // The server may be sending while it reads; taking its data in avoids a deadlock on full buffers.
            guard PQconsumeInput(handle) == 1 else { return }
        }
    }

    /// The next result of what was sent, nil after the last one; waits for it no longer than `queryTimeout`
    /// and polls only when libpq does not have the result already. The caller owns the result.
    func nextResult() throws(PostgresError) -> OpaquePointer? {
        var deadline: ContinuousClock.Instant?
        while PQisBusy(handle) == 1 {
            if deadline == nil, let queryTimeout { deadline = .now + queryTimeout }
            try waitForSocket(Int16(POLLIN), until: deadline)
            // On failure libpq marks the connection bad, and PQgetResult returns the error without blocking.
            guard PQconsumeInput(handle) == 1 else { break }
        }
        return PQgetResult(handle)
    }

    /// Blocks until the socket is ready for `events` (or closed), or gives the statement up once `deadline`
    /// has passed; nil waits without bound.
    private func waitForSocket(_ events: Int16, until deadline: ContinuousClock.Instant?) throws(PostgresError) {
        let socket = PQsocket(handle)
        guard socket >= 0 else {
            throw PostgresError(kind: .connectionLost, message: PostgresError.libpqMessage(handle))
        }
        var descriptor = pollfd(fd: socket, events: events, revents: 0)
        while true {
            var timeout: Int32 = -1
            if let deadline {
                let remaining = deadline - .now
                guard remaining > .zero else { throw abandon() }
                // Rounded up, so the wait never ends just before the deadline and spins.
                let (seconds, attoseconds) = remaining.components
                let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
                timeout = Int32(clamping: milliseconds)
            }
            let ready = poll(&descriptor, 1, timeout)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR {
                throw PostgresError(kind: .connectionLost, message: "poll on the connection failed (errno \(errno))")
            }
        }
    }

    /// Gives up the statement in progress: marks the connection unusable and, unless it is a commit (see
    /// `commit()`), asks the server to cancel the statement.
    private func abandon() -> PostgresError {
        isAbandoned = true
        let waited = queryTimeout.map { "\($0)" } ?? "the query timeout"
        guard cancelsAbandonedStatements else {
            return PostgresError(
                kind: .timedOut,
                message: "PostgreSQL did not confirm the commit within \(waited); the connection was dropped "
                    + "without canceling it, so its outcome is unknown"
            )
        }
        PostgresCancelRequests.send(PQgetCancel(handle))
        return PostgresError(
            kind: .timedOut,
            message: "PostgreSQL did not answer within \(waited); the statement was canceled and the connection dropped"
        )
    }
}

/// Cancel requests for statements given up on. `PQcancel` opens a new connection and waits for the server to
/// close it, with no timeout of its own, so a stopped server could hold its caller indefinitely: each request
/// is sent from a thread of its own, at most `limit` at once, and further ones are skipped (the server's
/// `statement_timeout` still ends the statement, and the connection is closed anyway).
enum PostgresCancelRequests {
    static let limit = 4
    private static let running = NIOLockedValueBox(0)

    /// Sends the request of `cancel` (from `PQgetCancel`, freed here) in the background.
    static func send(_ cancel: OpaquePointer?) {
        guard let cancel else { return }
        let admitted = running.withLockedValue { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
        guard admitted else {
            PQfreeCancel(cancel)
            return
        }
        let request = Request(cancel: cancel)
        DedicatedThread.start {
            request.send()
            running.withLockedValue { $0 -= 1 }
        }
    }

    // @unchecked Sendable: the handle moves to the request's thread and is used and freed only there.
    private struct Request: @unchecked Sendable {
        let cancel: OpaquePointer

        func send() {
            var message = [CChar](repeating: 0, count: 256)
            _ = PQcancel(cancel, &message, Int32(message.count))
            PQfreeCancel(cancel)
        }
    }
}
