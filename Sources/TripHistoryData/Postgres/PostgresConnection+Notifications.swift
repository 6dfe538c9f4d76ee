internal import CLibPQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A message from `NOTIFY` on a channel this session listens to.
struct PostgresNotification: Sendable, Hashable {
    var channel: String
    var payload: String
}

extension PostgresConnection {
    /// Waits up to `timeoutMilliseconds` for the socket to become readable (returning at once when data is
    /// already there), reads what arrived and returns the notifications received, possibly none. Blocks the
    /// calling thread. Throws `PostgresError` of kind `connectionLost` when the connection is closed or broken
    /// (the server terminated the backend, restarted, or the network failed).
    func notifications(waitingUpTo timeoutMilliseconds: Int32) throws(PostgresError) -> [PostgresNotification] {
        var received = takeNotifications()
        guard received.isEmpty else { return received }
        let socket = PQsocket(handle)
        guard socket >= 0, PQstatus(handle) == CONNECTION_OK else {
            throw PostgresError(kind: .connectionLost, message: PostgresError.libpqMessage(handle))
        }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, timeoutMilliseconds)
        // EINTR or a timeout: nothing to read yet.
        guard ready > 0 else { return [] }
        guard PQconsumeInput(handle) == 1, PQstatus(handle) == CONNECTION_OK else {
            throw PostgresError(kind: .connectionLost, message: PostgresError.libpqMessage(handle))
        }
        received = takeNotifications()
        return received
    }

    /// Every notification libpq has buffered, each freed with `PQfreemem` once copied.
    private func takeNotifications() -> [PostgresNotification] {
        var received: [PostgresNotification] = []
        while let notification = PQnotifies(handle) {
            received.append(
                PostgresNotification(
                    channel: String(cString: notification.pointee.relname),
                    payload: String(cString: notification.pointee.extra)
                )
            )
            PQfreemem(notification)
        }
        return received
    }
}
