/// The fixed SQL of the analyst repository. Each optional equality filter that is present adds a `col = $n`
/// term, and every combination is its own prepared statement, so each plans on the index that fits it:
/// `trips_city_time` with a city, `trips_rider_history` with a rider, `trips_time` otherwise. No statement
/// ever carries a `$n IS NULL OR ...` term, which would hide the filters from the planner.
enum AnalystStatements {
    /// Which optional filters a statement carries; their parameters follow the fixed ones in this order.
    struct Filters: Hashable, Sendable {
        var city: Bool
        var product: Bool
        var rider: Bool

        fileprivate var suffix: String { "c\(city ? 1 : 0)p\(product ? 1 : 0)r\(rider ? 1 : 0)" }

        /// `AND col = $n` for each present filter, numbered from `first`.
        fileprivate func terms(first: Int) -> String {
            var number = first
            var terms = ""
            for (present, column) in [(city, "city"), (product, "product"), (rider, "rider_id")] where present {
                terms += " AND \(column) = $\(number)"
                number += 1
            }
            return terms
        }
    }

    /// $1 from (inclusive), $2 to (exclusive), $3/$4 position key, $5 statuses, $6 limit, then the filters.
    static func list(direction: ListDirection, filters: Filters) -> PreparedStatement {
        let (comparison, order) = direction == .older ? ("<", "DESC") : (">", "ASC")
        return PreparedStatement(
            name: "analyst_trips_\(direction == .older ? "older" : "newer")_\(filters.suffix)_v1",
            sql: """
                SELECT \(TripStatements.columns) FROM trips
                WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
                  AND (requested_at, id) \(comparison) ($3::timestamptz, $4::bigint)
                  AND status = ANY ($5::text[])\(filters.terms(first: 7))
                ORDER BY requested_at \(order), id \(order)
                LIMIT $6
                """,
            resultFormat: .binary
        )
    }

    /// Which way a list statement reads from its key.
    enum ListDirection: Hashable, Sendable {
        case older
        case newer
    }

    /// $1 from, $2 to, $3 statuses, $4 date_trunc unit, $5 IANA zone, then the filters. One row per local
    /// period and currency: period start as an instant, currency, trips, completed, canceled, fare total,
    /// distance total, total duration of completed trips. Periods are cut on local wall-clock time and turned
    /// back into instants in the same zone, so a 23-hour day starts at its real local midnight.
    static func stats(filters: Filters) -> PreparedStatement {
        PreparedStatement(
            name: "analyst_stats_\(filters.suffix)_v1",
            sql: """
                SELECT local_start AT TIME ZONE $5 AS bucket_start, fare_currency, trips, completed, canceled,
                    fare_total, distance_total, completed_duration
                FROM (
                    SELECT date_trunc($4, requested_at AT TIME ZONE $5) AS local_start, fare_currency,
                        count(*) AS trips,
                        count(*) FILTER (WHERE status = 'completed') AS completed,
                        count(*) FILTER (WHERE status = 'canceled') AS canceled,
                        sum(fare_amount_minor) AS fare_total,
                        sum(distance_m) AS distance_total,
                        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration
                    FROM trips
                    WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
                      AND status = ANY ($3::text[])\(filters.terms(first: 6))
                    GROUP BY 1, 2
                ) buckets
                ORDER BY 1, 2
                """
        )
    }
}
