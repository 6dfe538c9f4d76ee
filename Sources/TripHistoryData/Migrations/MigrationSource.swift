public import Foundation

/// Where the migration files come from. `migrate`, the schema check of `serve` and the health monitor are
/// given the same source, so they compare the database with the same files.
public enum MigrationSource: Sendable, Hashable {
    /// The files built into the binary (`EmbeddedMigrations`): the default, wherever the binary runs.
    case embedded
    /// The `NNNN_name.sql` files of a folder (`--migrations`, `TRIP_HISTORY_MIGRATIONS`).
    case directory(URL)
}
