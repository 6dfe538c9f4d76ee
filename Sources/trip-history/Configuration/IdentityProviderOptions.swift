import ArgumentParser
import Foundation
import TripHistoryAPI

/// Tokens from the company's identity provider, accepted beside the service's own when a JWKS URL is set (off
/// by default). Flags override the environment:
///
/// - `TRIP_HISTORY_JWKS_URL` (`--jwks-url`): the provider's JWKS, an `http` or `https` URL.
/// - `TRIP_HISTORY_JWKS_ISSUER` (`--jwks-issuer`) and `TRIP_HISTORY_JWKS_AUDIENCE` (`--jwks-audience`): the
///   `iss` a token must have and a value its `aud` must include; required with the URL.
/// - `TRIP_HISTORY_JWKS_ROLE_CLAIM` (`--jwks-role-claim`, default `role`) and `TRIP_HISTORY_JWKS_RIDER_CLAIM`
///   (`--jwks-rider-claim`, default `sub`): the claims holding the role and a rider token's rider id.
struct IdentityProviderOptions: ParsableArguments {
    @Option(
        help:
            "JWKS URL of the identity provider whose RS256/ES256 tokens are accepted. Default: $TRIP_HISTORY_JWKS_URL, else none."
    )
    var jwksUrl: String?

    @Option(
        help:
            "The iss the identity provider's tokens must have. Default: $TRIP_HISTORY_JWKS_ISSUER; required with a JWKS URL."
    )
    var jwksIssuer: String?

    @Option(
        help:
            "A value the aud of the identity provider's tokens must include. Default: $TRIP_HISTORY_JWKS_AUDIENCE; required with a JWKS URL."
    )
    var jwksAudience: String?

    @Option(
        help:
            "The claim holding the role (rider, analyst or service). Default: $TRIP_HISTORY_JWKS_ROLE_CLAIM, else role."
    )
    var jwksRoleClaim: String?

    @Option(help: "The claim holding a rider token's rider id. Default: $TRIP_HISTORY_JWKS_RIDER_CLAIM, else sub.")
    var jwksRiderClaim: String?

    /// What `serve` needs to accept the identity provider's tokens.
    struct Settings: Sendable {
        var url: URL
        var tokens: IdentityProviderTokens.Configuration
    }

    /// The settings, or nil when no JWKS URL is set. Throws on a malformed URL, or on a URL without an issuer
    /// and an audience.
    func settings(environment: [String: String]) throws -> Settings? {
        func value(_ flag: String?, _ name: String) -> String? {
            let text = (flag ?? environment[name])?.trimmingCharacters(in: .whitespaces)
            return text?.isEmpty == false ? text : nil
        }
        guard let text = value(jwksUrl, "TRIP_HISTORY_JWKS_URL") else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host?.isEmpty == false
        else {
            throw ValidationError("TRIP_HISTORY_JWKS_URL (--jwks-url) must be an http or https URL, not '\(text)'.")
        }
        guard let issuer = value(jwksIssuer, "TRIP_HISTORY_JWKS_ISSUER") else {
            throw ValidationError(
                "TRIP_HISTORY_JWKS_URL is set, so set TRIP_HISTORY_JWKS_ISSUER (--jwks-issuer) to the iss of the identity provider's tokens."
            )
        }
        guard let audience = value(jwksAudience, "TRIP_HISTORY_JWKS_AUDIENCE") else {
            throw ValidationError(
                "TRIP_HISTORY_JWKS_URL is set, so set TRIP_HISTORY_JWKS_AUDIENCE (--jwks-audience) to the aud the identity provider's tokens carry for this API."
            )
        }
        return Settings(
            url: url,
            tokens: IdentityProviderTokens.Configuration(
                issuer: issuer, audience: audience,
                roleClaim: value(jwksRoleClaim, "TRIP_HISTORY_JWKS_ROLE_CLAIM") ?? "role",
                riderClaim: value(jwksRiderClaim, "TRIP_HISTORY_JWKS_RIDER_CLAIM") ?? "sub"
            )
        )
    }
}
