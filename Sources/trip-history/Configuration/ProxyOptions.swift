import ArgumentParser
import Foundation
import TripHistoryHTTP

/// The proxies in front of the service that pass client addresses on, off by default. The flag overrides the
/// environment:
///
/// - `TRIP_HISTORY_TRUSTED_PROXIES` (`--trusted-proxies`): comma-separated addresses or CIDR ranges, IPv4 or
///   IPv6 (`10.0.0.5,192.168.0.0/24,fd00::/8`). A connection from one of them must start with a PROXY
///   protocol version 2 header (haproxy's `send-proxy-v2`), and its requests count under the client the header
///   names; empty or unset trusts none, and a PROXY header is then a malformed request.
struct ProxyOptions: ParsableArguments {
    @Option(
        help:
            "Comma-separated addresses or CIDR ranges of proxies that send a PROXY protocol v2 header. Default: $TRIP_HISTORY_TRUSTED_PROXIES, else none."
    )
    var trustedProxies: String?

    /// The trusted proxies; none when nothing is configured. Throws on an entry that is not an address or a
    /// range.
    func trustedProxies(environment: [String: String]) throws -> TrustedProxies {
        guard let text = trustedProxies ?? environment["TRIP_HISTORY_TRUSTED_PROXIES"] else { return TrustedProxies() }
        let entries = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        do {
            return try TrustedProxies(entries)
        } catch {
            throw ValidationError(
                "TRIP_HISTORY_TRUSTED_PROXIES (--trusted-proxies) must list IP addresses or CIDR ranges such as "
                    + "10.0.0.5 or 192.168.0.0/24; not '\(error.entry)'.")
        }
    }
}
