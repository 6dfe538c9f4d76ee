import Foundation

/// Creates the partition of the trips table for the UTC year of `at` if it has none (`trips_ensure_partition`
/// of migration 0008), and does nothing on a table that is not partitioned: what a writer runs, outside its
/// transaction, when its insert met a year without a partition.
struct EnsureTripPartition: PostgresPreparedStatement {
    typealias Row = Void
    static let name = "trips_ensure_partition_v1"
    static let sql = "SELECT trips_ensure_partition('trips', $1::timestamptz)"

    let at: Date

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(at)
        return bindings
    }
}
