/// Why migrating refused or failed. Nothing is half-applied: each migration commits with its record.
public enum MigrationError: Error, Hashable, Sendable {
    /// An applied migration's file no longer has the checksum recorded when it was applied.
    case edited(String)
    /// The database has a version applied for which there is no file.
    case unknownApplied(Int)
    /// A `.sql` file in the directory is not named `NNNN_name.sql`.
    case invalidFileName(String)
    /// Two files share a version number.
    case duplicateVersion(Int)
    /// The migrations directory cannot be listed or a file cannot be read.
    case unreadableDirectory(String)
    /// A migration's SQL failed; the database keeps the state before it.
    case failed(name: String, message: String)
}
