/// Where `serve` exposes `GET /metrics`: a listener of its own, on loopback by default, never the API's port,
/// since the scrape needs no token. `TRIP_HISTORY_METRICS=off` serves none.
public struct MetricsAddress: Sendable, Equatable {
    public static let defaultPort = 9464

    public var host = "127.0.0.1"
    public var port = MetricsAddress.defaultPort

    public init() {}

    /// The listener's address from `settings`, or nil when it is off.
    init?(settings: SettingsReader) throws {
        guard try settings.isOn(.metrics) ?? true else { return nil }
        host = settings.string(.metricsHost) ?? host
        port = try settings.integer(.metricsPort, in: 1...65_535) ?? port
    }
}
