import ArgumentParser
import NIOCore
import TripHistoryHTTP

/// Timeouts and the cap of client connections (`ConnectionLimits`). Flags override the environment:
///
/// - `TRIP_HISTORY_HEAD_TIMEOUT_MS` (`--head-timeout-ms`): a request head must arrive within it (default 5000).
/// - `TRIP_HISTORY_IDLE_TIMEOUT_MS` (`--idle-timeout-ms`): a keep-alive connection without a request is
///   closed after it (default 75000).
/// - `TRIP_HISTORY_BODY_TIMEOUT_MS` (`--body-timeout-ms`): a request body may pause this long (default 10000).
/// - `TRIP_HISTORY_BODY_DEADLINE_MS` (`--body-deadline-ms`): a request body must arrive completely within it
///   after its head (default 30000).
/// - `TRIP_HISTORY_WRITE_TIMEOUT_MS` (`--write-timeout-ms`): a client may leave a response unread this long
///   (default 30000).
/// - `TRIP_HISTORY_MIN_WRITE_RATE` (`--min-write-rate`): bytes per second a client that holds a response back
///   must take, averaged over the write timeout (default 1024).
/// - `TRIP_HISTORY_MAX_CONNECTIONS` (`--max-connections`): connections open at once (default 1000).
/// - `TRIP_HISTORY_MAX_CONNECTIONS_PER_ADDRESS` (`--max-connections-per-address`): connections open at once from
///   one client address (default 256).
struct ConnectionOptions: ParsableArguments {
    @Option(help: "Milliseconds a request head may take to arrive. Default: $TRIP_HISTORY_HEAD_TIMEOUT_MS, else 5000.")
    var headTimeoutMs: Int?

    @Option(
        help:
            "Milliseconds a keep-alive connection may wait for its next request. Default: $TRIP_HISTORY_IDLE_TIMEOUT_MS, else 75000."
    )
    var idleTimeoutMs: Int?

    @Option(help: "Milliseconds a request body may pause. Default: $TRIP_HISTORY_BODY_TIMEOUT_MS, else 10000.")
    var bodyTimeoutMs: Int?

    @Option(
        help:
            "Milliseconds a request body may take to arrive completely after its head. Default: $TRIP_HISTORY_BODY_DEADLINE_MS, else 30000."
    )
    var bodyDeadlineMs: Int?

    @Option(
        help:
            "Milliseconds a response may wait for the client to read. Default: $TRIP_HISTORY_WRITE_TIMEOUT_MS, else 30000."
    )
    var writeTimeoutMs: Int?

    @Option(
        help:
            "Bytes per second a client holding a response back must take, over the write timeout. Default: $TRIP_HISTORY_MIN_WRITE_RATE, else 1024."
    )
    var minWriteRate: Int?

    @Option(
        help: "Client connections open at once; one more gets 503. Default: $TRIP_HISTORY_MAX_CONNECTIONS, else 1000.")
    var maxConnections: Int?

    @Option(
        help:
            "Client connections open at once from one address; one more gets 503. Default: $TRIP_HISTORY_MAX_CONNECTIONS_PER_ADDRESS, else 256."
    )
    var maxConnectionsPerAddress: Int?

    /// The limits, each from its flag, else its variable, else the default. Throws on a value that is not a
    /// positive integer.
    func limits(environment: [String: String]) throws -> ConnectionLimits {
        var limits = ConnectionLimits()
        limits.headTimeout =
            try timeout(headTimeoutMs, environment, "TRIP_HISTORY_HEAD_TIMEOUT_MS") ?? limits.headTimeout
        limits.idleTimeout =
            try timeout(idleTimeoutMs, environment, "TRIP_HISTORY_IDLE_TIMEOUT_MS") ?? limits.idleTimeout
        limits.bodyTimeout =
            try timeout(bodyTimeoutMs, environment, "TRIP_HISTORY_BODY_TIMEOUT_MS") ?? limits.bodyTimeout
        limits.bodyDeadline =
            try timeout(bodyDeadlineMs, environment, "TRIP_HISTORY_BODY_DEADLINE_MS") ?? limits.bodyDeadline
        limits.writeTimeout =
            try timeout(writeTimeoutMs, environment, "TRIP_HISTORY_WRITE_TIMEOUT_MS") ?? limits.writeTimeout
        limits.minimumWriteRate =
            try positive(minWriteRate, environment, "TRIP_HISTORY_MIN_WRITE_RATE") ?? limits.minimumWriteRate
        limits.maximumConnections =
            try positive(maxConnections, environment, "TRIP_HISTORY_MAX_CONNECTIONS") ?? limits.maximumConnections
        limits.maximumConnectionsPerAddress =
            try positive(maxConnectionsPerAddress, environment, "TRIP_HISTORY_MAX_CONNECTIONS_PER_ADDRESS")
            ?? limits.maximumConnectionsPerAddress
        return limits
    }

    private func timeout(_ flag: Int?, _ environment: [String: String], _ name: String) throws -> TimeAmount? {
        try positive(flag, environment, name).map { .milliseconds(Int64($0)) }
    }

    private func positive(_ flag: Int?, _ environment: [String: String], _ name: String) throws -> Int? {
        if let flag {
            guard flag > 0 else { throw ValidationError("The flag for \(name) must be a positive integer.") }
            return flag
        }
        guard let text = environment[name] else { return nil }
        guard let value = Int(text), value > 0 else { throw ValidationError("\(name) must be a positive integer.") }
        return value
    }
}
