/// The key material for tokens and cursors. There is no default: a service that signs with a known key would
/// accept anyone's tokens. `scripts/run` generates one for local use.
public enum ServiceSecret {
    public static let minimumBytes = 32

    /// `TRIP_HISTORY_SECRET` (or its file); refused when missing or shorter than `minimumBytes`.
    public static func current(_ settings: SettingsReader) throws -> [UInt8] {
        guard let secret = settings.string(.secret) else {
            throw ConfigurationError(
                "Set \(Setting.secret.environmentName) (or \(Setting.secret.fileEnvironmentName)) to a random string of at least \(minimumBytes) bytes."
            )
        }
        guard secret.utf8.count >= minimumBytes else {
            throw ConfigurationError(
                "\(Setting.secret.environmentName) is too short: use at least \(minimumBytes) bytes.")
        }
        return Array(secret.utf8)
    }

    /// The secrets rotated out but still accepted: `TRIP_HISTORY_PREVIOUS_SECRETS`, comma-separated without
    /// spaces (so a secret that is to be rotated must not contain a comma), empty entries ignored, each at least
    /// `minimumBytes` long. None by default.
    public static func previous(_ settings: SettingsReader) throws -> [[UInt8]] {
        guard let list = settings.string(.previousSecrets) else { return [] }
        return try list.split(separator: ",").map { secret in
            // A space after a comma would silently become part of the secret, and its tokens would not verify.
            guard secret.first?.isWhitespace == false, secret.last?.isWhitespace == false else {
                throw ConfigurationError(
                    "Separate \(Setting.previousSecrets.environmentName) with commas only, without spaces.")
            }
            guard secret.utf8.count >= minimumBytes else {
                throw ConfigurationError(
                    "A previous secret in \(Setting.previousSecrets.environmentName) is too short: each needs \(minimumBytes) bytes."
                )
            }
            return Array(secret.utf8)
        }
    }
}
