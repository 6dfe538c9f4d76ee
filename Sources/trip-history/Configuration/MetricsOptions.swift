import ArgumentParser

/// Where `serve` exposes `GET /metrics`: a listener of its own, on loopback by default, never the API's port,
/// since the scrape needs no token. Flags override the environment:
///
/// - `TRIP_HISTORY_METRICS_HOST` (`--metrics-host`): address to listen on (default 127.0.0.1).
/// - `TRIP_HISTORY_METRICS_PORT` (`--metrics-port`): port to listen on (default 9464).
/// - `TRIP_HISTORY_METRICS=off` (or `--no-metrics`): no metrics listener.
struct MetricsOptions: ParsableArguments {
    static let defaultPort = 9464

    @Option(help: "Address of the metrics listener. Default: $TRIP_HISTORY_METRICS_HOST, else 127.0.0.1.")
    var metricsHost: String?

    @Option(help: "Port of the metrics listener (GET /metrics). Default: $TRIP_HISTORY_METRICS_PORT, else 9464.")
    var metricsPort: Int?

    @Flag(help: "Serve no /metrics at all (same as TRIP_HISTORY_METRICS=off).")
    var noMetrics = false

    /// The metrics listener's address, or nil when it is off.
    func address(environment: [String: String]) throws -> (host: String, port: Int)? {
        if noMetrics { return nil }
        switch environment["TRIP_HISTORY_METRICS"]?.lowercased() {
        case nil, "", "on": break
        case "off": return nil
        case let other?: throw ValidationError("TRIP_HISTORY_METRICS must be on or off, not '\(other)'.")
        }
        let host = metricsHost ?? environment["TRIP_HISTORY_METRICS_HOST"] ?? "127.0.0.1"
        let port: Int
        if let metricsPort {
            port = metricsPort
        } else if let text = environment["TRIP_HISTORY_METRICS_PORT"] {
            guard let value = Int(text) else {
                throw ValidationError("TRIP_HISTORY_METRICS_PORT must be an integer, not '\(text)'.")
            }
            port = value
        } else {
            port = Self.defaultPort
        }
        guard (1...65_535).contains(port) else { throw ValidationError("The metrics port must be 1 to 65535.") }
        return (host, port)
    }
}
