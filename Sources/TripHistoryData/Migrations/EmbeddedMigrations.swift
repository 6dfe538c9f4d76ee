/// The migration files built into the binary from the repository's `migrations/` (linked into this target as
/// `Migrations/SQL`), so `trip-history migrate` and `serve` need no checkout. SwiftPM embeds each file as a
/// constant (named after the file, its leading digit replaced by `_`) but lists none, so a new migration file
/// needs its line here; a test fails while this list and the folder differ in names or bytes.
enum EmbeddedMigrations {
    static let files: [(name: String, bytes: [UInt8])] = [
        ("0001_create_trips.sql", PackageResources._001_create_trips_sql),
        ("0002_create_idempotency_keys.sql", PackageResources._002_create_idempotency_keys_sql),
        ("0003_analyst_indexes.sql", PackageResources._003_analyst_indexes_sql),
        ("0004_idempotency_keys_created_at.sql", PackageResources._004_idempotency_keys_created_at_sql),
        ("0005_trip_lifecycle.sql", PackageResources._005_trip_lifecycle_sql),
        ("0006_rider_erasures.sql", PackageResources._006_rider_erasures_sql),
        ("0007_analyst_changes_feed.sql", PackageResources._007_analyst_changes_feed_sql),
        ("0008_trip_partitioning.sql", PackageResources._008_trip_partitioning_sql),
        ("0009_changes_purge_watermarks.sql", PackageResources._009_changes_purge_watermarks_sql),
    ]
}
