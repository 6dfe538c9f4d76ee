/// How the database schema compares with the migration files.
public enum MigrationStatus: Hashable, Sendable {
    /// Every file is applied, unchanged, and nothing unknown is applied.
    case current
    /// These files (names without `.sql`, in order) are not applied yet.
    case pending([String])
    /// This applied migration's file changed since it was applied.
    case edited(String)
    /// The database has this version applied but no file for it (e.g. an older build).
    case unknownApplied(Int)
}
