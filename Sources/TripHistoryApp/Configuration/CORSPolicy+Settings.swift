import Foundation
import TripHistoryHTTP

/// Cross-origin access for browser apps on other origins, off by default: `TRIP_HISTORY_CORS_ORIGINS` lists
/// exact origins, each `scheme://host` with an optional port and nothing after it
/// (`https://app.example.com,http://localhost:5173`), compared in lower case as browsers send them.
extension CORSPolicy {
    /// The policy, or nil when no origin is configured. Throws on a value that is not an origin.
    init?(settings: SettingsReader) throws {
        guard let text = settings.string(.corsOrigins) else { return nil }
        var origins: [String] = []
        for part in text.split(separator: ",") {
            // Browsers send the origin in lower case; a configured capital would never match.
            let origin = part.trimmingCharacters(in: .whitespaces).lowercased()
            if origin.isEmpty { continue }
            guard Self.isOrigin(origin) else {
                throw ConfigurationError(
                    "\(Setting.corsOrigins) must list origins such as https://app.example.com "
                        + "(scheme, host and optional port, no path or trailing slash); not '\(origin)'.")
            }
            origins.append(origin)
        }
        self.init(origins: origins)
    }

    /// Whether `text` is an origin as browsers serialize it: `http` or `https`, `://`, a host and an optional
    /// port, nothing else (a path, a trailing slash or a wildcard would never match an `Origin` header).
    static func isOrigin(_ text: String) -> Bool {
        let rest: Substring
        if text.hasPrefix("https://") {
            rest = text.dropFirst("https://".count)
        } else if text.hasPrefix("http://") {
            rest = text.dropFirst("http://".count)
        } else {
            return false
        }
        var port: Substring = ""
        if rest.hasPrefix("[") {
            // An IPv6 literal: brackets around hex digits and colons.
            guard let close = rest.firstIndex(of: "]"),
                rest[rest.index(after: rest.startIndex)..<close].allSatisfy({
                    $0.isHexDigit || $0 == ":"
                })
            else { return false }
            let after = rest[rest.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return false }
            port = after.dropFirst()
            if after.isEmpty { return true }
        } else {
            let parts = rest.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let host = parts.first, !host.isEmpty,
                host.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "." })
            else { return false }
            if parts.count == 1 { return true }
            port = parts[1]
        }
        guard !port.isEmpty, port.allSatisfy(\.isNumber), let number = Int(port), (1...65_535).contains(number)
        else { return false }
        return true
    }
}
