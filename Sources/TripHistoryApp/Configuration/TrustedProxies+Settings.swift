import Foundation
import TripHistoryHTTP

/// The proxies in front of the service that pass client addresses on, none by default:
/// `TRIP_HISTORY_TRUSTED_PROXIES` lists addresses or CIDR ranges, IPv4 or IPv6 (`10.0.0.5,192.168.0.0/24`). A
/// connection from one of them must start with a PROXY protocol version 2 header (haproxy's `send-proxy-v2`),
/// and its requests count under the client the header names.
extension TrustedProxies {
    /// The trusted proxies from `settings`; none when nothing is configured. Throws on an entry that is not an
    /// address or a range.
    init(settings: SettingsReader) throws {
        try self.init(settings: settings, setting: .trustedProxies)
    }

    /// The addresses and ranges `setting` lists, comma-separated; none when it is unset. Throws, naming the
    /// setting, on an entry that is not an address or a range.
    init(settings: SettingsReader, setting: Setting) throws {
        guard let text = settings.string(setting) else {
            self.init()
            return
        }
        let entries = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        do {
            try self.init(entries)
        } catch {
            throw ConfigurationError(
                "\(setting) must list IP addresses or CIDR ranges such as 10.0.0.5 or "
                    + "192.168.0.0/24; not '\(error.entry)'.")
        }
    }
}
