import ArgumentParser
import Foundation

/// The key material for tokens and cursors. There is no default: a service that signs with a known key
/// would accept anyone's tokens. `scripts/run` generates one for local use.
enum ServiceSecret {
    static let minimumBytes = 32

    /// `TRIP_HISTORY_SECRET`, or the contents of the file `TRIP_HISTORY_SECRET_FILE` names (one trailing line
    /// break dropped), as container platforms mount secrets; refused when missing, when both are set, or
    /// when shorter than `minimumBytes`.
    static func load(environment: [String: String]) throws -> [UInt8] {
        let inline = environment["TRIP_HISTORY_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
        let path = environment["TRIP_HISTORY_SECRET_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        if inline != nil, path != nil {
            throw ValidationError("Set TRIP_HISTORY_SECRET or TRIP_HISTORY_SECRET_FILE, not both.")
        }
        guard let secret = try inline ?? path.map(readSecretFile) else {
            throw ValidationError(
                "Set TRIP_HISTORY_SECRET (or TRIP_HISTORY_SECRET_FILE) to a random string of at least \(minimumBytes) bytes."
            )
        }
        guard secret.utf8.count >= minimumBytes else {
            throw ValidationError("TRIP_HISTORY_SECRET is too short: use at least \(minimumBytes) bytes.")
        }
        return Array(secret.utf8)
    }

    /// The file's text without one trailing line break; a file that cannot be read is named in the error.
    private static func readSecretFile(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else { throw ValidationError("Cannot read TRIP_HISTORY_SECRET_FILE at \(path).") }
        if text.hasSuffix("\r\n") { return String(text.dropLast(2)) }
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    /// The secrets rotated out but still accepted: `flag` (`--previous-secrets`) if given, else
    /// `TRIP_HISTORY_PREVIOUS_SECRETS`; comma-separated without spaces (so a secret that is to be rotated must
    /// not contain a comma), empty entries ignored, each at least `minimumBytes` long. None by default.
    static func loadPrevious(flag: String?, environment: [String: String]) throws -> [[UInt8]] {
        guard let list = flag ?? environment["TRIP_HISTORY_PREVIOUS_SECRETS"] else { return [] }
        return try list.split(separator: ",").map { secret in
            // A space after a comma would silently become part of the secret, and its tokens would not verify.
            guard secret.first?.isWhitespace == false, secret.last?.isWhitespace == false else {
                throw ValidationError("Separate TRIP_HISTORY_PREVIOUS_SECRETS with commas only, without spaces.")
            }
            guard secret.utf8.count >= minimumBytes else {
                throw ValidationError(
                    "A previous secret in TRIP_HISTORY_PREVIOUS_SECRETS is too short: each needs \(minimumBytes) bytes."
                )
            }
            return Array(secret.utf8)
        }
    }
}
