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

    /// The settings, or nil when no JWKS URL is set. Throws on a malformed URL, or on a URL without an issuer
    /// and an audience.
    init?(settings: SettingsReader) throws {
        func value(_ setting: Setting) -> String? {
            let text = settings.string(setting)?.trimmingCharacters(in: .whitespaces)
            return text?.isEmpty == false ? text : nil
        }
        guard let text = value(.jwksURL) else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host?.isEmpty == false
        else {
            throw ConfigurationError("\(Setting.jwksURL) must be an http or https URL, not '\(text)'.")
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
