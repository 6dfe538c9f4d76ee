import Foundation

/// Whether the trips table is partitioned (`trip-history partition-trips`).
struct TripsArePartitioned: PostgresPreparedStatement {
    static let name = "trips_partitioned_v1"
    static let sql = "SELECT EXISTS (SELECT 1 FROM pg_partitioned_table WHERE partrelid = to_regclass('trips'))"

    func makeBindings() -> PostgresBindings { PostgresBindings() }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Bool {
        try rows.bool(row, 0) == true
    }
}

/// The years of trips that ended before `cutoff` (their partition's upper bound, read from its definition) and
/// are still partitions of trips, oldest first, with whether an earlier detach of it was left pending.
struct ExpiredTripPartitions: PostgresPreparedStatement {
    struct Partition: Sendable {
        let year: Int
        let detachPending: Bool
    }

    static let name = "trips_expired_partitions_v1"
    static let sql = """
        SELECT substr(c.relname, 8)::bigint, i.inhdetachpending
        FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = to_regclass('trips') AND c.relname ~ '^trips_y-?[0-9]+$'
            AND substring(pg_get_expr(c.relpartbound, c.oid) FROM 'TO \\(''([^'']+)''\\)')::timestamptz <= $1::timestamptz
        ORDER BY 1
        """

    let cutoff: Date

    /// The partition of `year`, quoted (a year before the common era has a minus sign).
    static func table(_ year: Int) -> String { "\"trips_y\(year)\"" }

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(cutoff)
        return bindings
    }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Partition {
        guard let year = try rows.int64(row, 0) else {
            throw PostgresError(kind: .decoding, message: "a trips partition without a year")
        }
        return Partition(year: Int(year), detachPending: try rows.bool(row, 1) == true)
    }
}

/// The years detached from trips whose trips are still to be reported and whose tables to be dropped: the
/// `trips_yYYYY` tables of the schema that are no partition (any longer), oldest first.
struct RetiredTripPartitions: PostgresPreparedStatement {
    static let name = "trips_retired_partitions_v1"
    static let sql = """
        SELECT substr(relname, 8)::bigint FROM pg_class
        WHERE relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
            AND relkind = 'r' AND NOT relispartition AND relname ~ '^trips_y-?[0-9]+$'
        ORDER BY 1
        """

    func makeBindings() -> PostgresBindings { PostgresBindings() }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Int {
        guard let year = try rows.int64(row, 0) else {
            throw PostgresError(kind: .decoding, message: "a detached trips table without a year")
        }
        return Int(year)
    }
}

/// The last trip id of a detached year reported so far, 0 before the first batch.
struct RetirementProgress: PostgresPreparedStatement {
    static let name = "trips_retirement_progress_v2"
    static let sql = "SELECT coalesce(max(reported_through), 0) FROM trip_retirements WHERE year = $1::integer"

    let year: Int

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(year)
        return bindings
    }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Int64 {
        guard let reported = try rows.int64(row, 0) else {
            throw PostgresError(kind: .decoding, message: "a retirement's progress without a value")
        }
        return reported
    }
}

/// Forgets a year's progress once its table is dropped.
struct ForgetRetirement: PostgresPreparedStatement {
    typealias Row = Void
    static let name = "trips_retirement_forget_v1"
    static let sql = "DELETE FROM trip_retirements WHERE year = $1::integer"

    let year: Int

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(year)
        return bindings
    }
}

/// Reports the next `limit` trips after id `after` of a detached year: deletes their receipts, ledger rows and
/// idempotency keys, appends an `erased` entry per trip to its rider's feed, records the batch's last id in
/// `trip_retirements` and announces each rider on the change channel. Returns a row per rider: the rider, the
/// number of the rider's trips, and the batch's last id. The riders' counters are locked in rider order, as
/// every writer of several riders' counters does; writes of one rider take only theirs. The table's name
/// depends on the year, so each year's is a prepared statement of its own.
struct ReportRetiredTrips: PostgresStatement {
    let year: Int
    let after: Int64
    let limit: Int

    var prepared: PreparedStatement {
        PreparedStatement(
            name: "trips_retired_report_y\(year)_v1",
            sql: """
                WITH batch AS (
                    SELECT id, rider_id FROM \(ExpiredTripPartitions.table(year))
                    WHERE id > $1::bigint ORDER BY id LIMIT $2::bigint
                ), \(TripStatements.partsDeletion(of: "batch")), per_rider AS (
                    SELECT rider_id, count(*) AS trips FROM batch GROUP BY rider_id
                ), counters AS (
                    INSERT INTO rider_change_counters AS c (rider_id, last_seq)
                    SELECT rider_id, trips + 1 FROM per_rider ORDER BY rider_id
                    ON CONFLICT (rider_id) DO UPDATE SET last_seq = c.last_seq + EXCLUDED.last_seq - 1
                    RETURNING rider_id, last_seq
                ), feed AS (
                    INSERT INTO trip_changes (rider_id, seq, trip_id, change)
                    SELECT batch.rider_id,
                        counters.last_seq - per_rider.trips
                            + row_number() OVER (PARTITION BY batch.rider_id ORDER BY batch.id),
                        batch.id, 'erased'
                    FROM batch JOIN per_rider USING (rider_id) JOIN counters USING (rider_id)
                ), progress AS (
                    INSERT INTO trip_retirements (year, reported_through)
                    SELECT \(year), max(id) FROM batch HAVING count(*) > 0
                    ON CONFLICT (year) DO UPDATE SET reported_through = EXCLUDED.reported_through
                )
                SELECT pg_notify('\(PostgresChangeListener.channel)', rider_id::text), rider_id, trips,
                    (SELECT max(id) FROM batch)
                FROM per_rider ORDER BY rider_id
                """,
            resultFormat: .text)
    }

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(after)
        bindings.append(limit)
        return bindings
    }

    /// The rider, the number of the rider's trips, and the batch's last id.
    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> (rider: Int64, trips: Int, last: Int64) {
        guard let rider = try rows.int64(row, 1), let trips = try rows.int64(row, 2), let last = try rows.int64(row, 3)
        else { throw PostgresError(kind: .decoding, message: "retention returned a rider without a count") }
        return (rider, Int(trips), last)
    }
}
