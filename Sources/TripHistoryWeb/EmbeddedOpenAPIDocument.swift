/// The repository's `openapi.yaml` built into the binary (linked into this target as `OpenAPI/openapi.yaml`),
/// so `trip-history serve` serves its own API description from any working directory, with no checkout and
/// no file next to it. `serve --openapi PATH` (or `TRIP_HISTORY_OPENAPI`) still replaces it with a file.
public enum EmbeddedOpenAPIDocument {
    /// The document's bytes, exactly as in the repository.
    public static let bytes: [UInt8] = PackageResources.openapi_yaml
}
