/// The fixed SQL of the trip repository. Every list read is one of two statements whose open bounds are
/// passed as `-infinity`/`infinity` and whose status filter is an array, so each plans as an index range scan
/// on `trips_rider_history (rider_id, requested_at DESC, id DESC)`. Statements that return rows ask for them in
/// binary form: for a page of trips that spares the server its text output of timestamps and doubles (about
/// a tenth of its CPU per page, measured) and this process the parsing of them.
enum TripStatements {
    static let columns = """
        id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, \
        pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, \
        distance_m, duration_s, fare_amount_minor, fare_currency
        """

    /// $1 rider, $2 from (inclusive), $3 to (exclusive), $4/$5 position key, $6 statuses, $7 limit.
    static let older = PreparedStatement(
        name: "trips_older_v1",
        sql: """
            SELECT \(columns) FROM trips
            WHERE rider_id = $1 AND requested_at >= $2::timestamptz AND requested_at < $3::timestamptz
              AND (requested_at, id) < ($4::timestamptz, $5::bigint) AND status = ANY ($6::text[])
            ORDER BY requested_at DESC, id DESC
            LIMIT $7
            """,
        resultFormat: .binary
    )

    /// Same parameters as `older`, read oldest first from just above the position.
    static let newer = PreparedStatement(
        name: "trips_newer_v1",
        sql: """
            SELECT \(columns) FROM trips
            WHERE rider_id = $1 AND requested_at >= $2::timestamptz AND requested_at < $3::timestamptz
              AND (requested_at, id) > ($4::timestamptz, $5::bigint) AND status = ANY ($6::text[])
            ORDER BY requested_at ASC, id ASC
            LIMIT $7
            """,
        resultFormat: .binary
    )

    /// $1 trip id, $2 rider.
    static let byID = PreparedStatement(
        name: "trips_by_id_v1",
        sql: "SELECT \(columns) FROM trips WHERE id = $1 AND rider_id = $2",
        resultFormat: .binary
    )

    /// The 18 recorded fields in column order after `id`; returns the new id.
    static let insert = PreparedStatement(
        name: "trips_insert_v1",
        sql: """
            INSERT INTO trips (rider_id, status, product, city, time_zone, requested_at, started_at, completed_at,
                pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address,
                distance_m, duration_s, fare_amount_minor, fare_currency)
            VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz, $8::timestamptz,
                $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
            RETURNING id
            """,
        resultFormat: .binary
    )

    /// $1 scope, $2 key: true when this transaction now holds the key's lock.
    static let lockKey = PreparedStatement(
        name: "idempotency_lock_v1",
        sql: "SELECT pg_try_advisory_xact_lock(hashtextextended($1 || ':' || $2, 0))",
        resultFormat: .binary
    )

    /// $1 scope, $2 key, $3 fingerprint: whether the fingerprint matches, then the stored trip.
    static let findKey = PreparedStatement(
        name: "idempotency_find_v1",
        sql: """
            SELECT k.fingerprint_md5 = md5($3), \(columns.split(separator: ",").map { "t." + $0.trimmingPrefixSpaces }.joined(separator: ", "))
            FROM idempotency_keys k JOIN trips t ON t.id = k.trip_id
            WHERE k.scope = $1 AND k.key = $2
            """,
        resultFormat: .binary
    )

    /// $1 scope, $2 key, $3 fingerprint, $4 trip id.
    static let insertKey = PreparedStatement(
        name: "idempotency_insert_v1",
        sql: """
            INSERT INTO idempotency_keys (scope, key, fingerprint_md5, trip_id, created_at)
            VALUES ($1, $2, md5($3), $4, now())
            """
    )
}

extension Substring {
    fileprivate var trimmingPrefixSpaces: Substring { drop(while: { $0 == " " }) }
}

extension TripStatements {
    /// $1 rider id: announces a change of the rider's trips on the change channel, delivered at commit.
    static let notifyChange = PreparedStatement(
        name: "trips_notify_change_v1",
        sql: "SELECT pg_notify('\(PostgresChangeListener.channel)', $1)"
    )
}
