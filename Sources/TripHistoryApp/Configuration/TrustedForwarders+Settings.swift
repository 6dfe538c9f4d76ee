import TripHistoryHTTP

/// The forwarders in front of the service that name each client in an HTTP field, none by default:
/// `TRIP_HISTORY_TRUSTED_FORWARDERS` lists their addresses or CIDR ranges, IPv4 or IPv6, like
/// `TRIP_HISTORY_TRUSTED_PROXIES` (a list of its own: a PROXY protocol proxy must send its binary header on
/// every connection, a forwarder sends plain HTTP), and `TRIP_HISTORY_FORWARDED_HEADER` names the one field
/// they write, `x-forwarded-for` (the default) or `forwarded`.
extension TrustedForwarders {
    /// The trusted forwarders from `settings`; none when none is listed. Throws on an entry that is not an
    /// address or a range, or a field that is neither.
    init(settings: SettingsReader) throws {
        let addresses = try TrustedProxies(settings: settings, setting: .trustedForwarders)
        let field = try settings.choice(.forwardedHeader, as: Field.self) ?? .xForwardedFor
        self.init(addresses: addresses, field: field)
    }
}
