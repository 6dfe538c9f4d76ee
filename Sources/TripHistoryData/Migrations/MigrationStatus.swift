/// How the database schema compares with the migration files.
public enum MigrationStatus: Hashable, Sendable {
    /// Every file is applied, unchanged, and nothing unknown is applied.
    case current
    /// These files (names without `.sql`, in order) are not applied yet.
    case pending([String])
    /// This applied migration's file changed since it was applied.
    case edited(String)
    /// Every file is applied, unchanged, and so are these newer versions a later build applied: this build's
    /// schema is all there (migrations only add what older builds can ignore), so it serves, as an instance of
    /// the previous release must while a rolling deploy replaces it.
    case ahead([Int])
    /// The database has this version applied but no file for it, older than this build's newest file or
    /// beside a file still pending: another line of migrations, not a later one.
    case unknownApplied(Int)

    /// Whether this build's schema is complete, as `serve` and readiness need.
    public var isServable: Bool {
        switch self {
        case .current, .ahead: true
        case .pending, .edited, .unknownApplied: false
        }
    }
}
