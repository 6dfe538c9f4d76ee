import Foundation

/// The repository's `openapi.yaml` built into the binary (linked into this target as `OpenAPI/openapi.yaml`),
/// so `trip-history serve` serves its own API description from any working directory, with no checkout and
/// no file next to it. `serve --openapi PATH` (or `TRIP_HISTORY_OPENAPI`) still replaces it with a file.
public enum EmbeddedOpenAPIDocument {
    /// The document's bytes, exactly as in the repository.
    public static let bytes: [UInt8] = PackageResources.openapi_yaml

    /// The document's `info.version`, the version of the API this binary serves (`CHANGELOG.md` describes each);
    /// nil if the document has none.
    public static var version: String? {
        var inInfo = false
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            if !line.hasPrefix(" ") {
                inInfo = line.hasPrefix("info:")
            } else if inInfo, line.hasPrefix("  version:") {
                return line.dropFirst("  version:".count).trimmingCharacters(in: .whitespaces)
                    .trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            }
        }
        return nil
    }
}
