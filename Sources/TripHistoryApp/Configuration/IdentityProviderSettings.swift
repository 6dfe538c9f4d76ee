public import Foundation
public import TripHistoryAPI

/// Tokens from the company's identity provider, accepted beside the service's own when
/// `TRIP_HISTORY_JWKS_URL` is set (off by default). Its issuer and audience are required with it; the claims
/// holding the role and a rider token's rider id default to `role` and `sub`.
public struct IdentityProviderSettings: Sendable {
    public var url: URL
    public var tokens: IdentityProviderTokens.Configuration

    public init(url: URL, tokens: IdentityProviderTokens.Configuration) {
        self.url = url
        self.tokens = tokens
    }

    /// Whether `host` names this machine: `localhost`, an address in 127.0.0.0/8, or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host == "localhost" || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// The settings, or nil when no JWKS URL is set. Throws on a malformed URL, or on a URL without an issuer
    /// and an audience.
    init?(settings: SettingsReader) throws {
        func value(_ setting: Setting) -> String? {
            let text = settings.string(setting)?.trimmingCharacters(in: .whitespaces)
            return text?.isEmpty == false ? text : nil
        }
        guard let text = value(.jwksURL) else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else {
            throw ConfigurationError("\(Setting.jwksURL) must be an https URL, not '\(text)'.")
        }
        // The keys decide who may call the API: plain HTTP only to this machine, where no one sits in between.
        guard scheme == "https" || Self.isLoopback(host) else {
            throw ConfigurationError(
                "\(Setting.jwksURL) must be an https URL (plain http only to a loopback address), not '\(text)'.")
        }
        guard let issuer = value(.jwksIssuer) else {
            throw ConfigurationError(
                "\(Setting.jwksURL.environmentName) is set, so set \(Setting.jwksIssuer) to the iss of the identity provider's tokens."
            )
        }
        guard let audience = value(.jwksAudience) else {
            throw ConfigurationError(
                "\(Setting.jwksURL.environmentName) is set, so set \(Setting.jwksAudience) to the aud the identity provider's tokens carry for this API."
            )
        }
        self.init(
            url: url,
            tokens: IdentityProviderTokens.Configuration(
                issuer: issuer, audience: audience, roleClaim: value(.jwksRoleClaim) ?? "role",
                riderClaim: value(.jwksRiderClaim) ?? "sub"))
    }
}
