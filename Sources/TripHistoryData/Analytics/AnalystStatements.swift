import TripHistoryDomain

/// A keyset page of every rider's trips (analyst lists and export batches): up to `limit` trips requested in
/// `[from, to)` that match the filter, strictly beyond the key in `direction`.
///
/// Each optional equality filter that is set adds a `col = $n` term, and every combination is its own
/// prepared statement, so each plans on the index that fits it: `trips_city_time` with a city,
/// `trips_rider_history` with a rider, `trips_time` otherwise. No statement ever carries a
/// `$n IS NULL OR ...` term, which would hide the filters from the planner.
struct AnalystTripsPage: PostgresStatement {
    let prepared: PreparedStatement
    /// Whether every execution should reuse the statement's one generic plan: when no product is filtered, the
    /// plan walks the index whose order is the page's and stops after `limit` rows, whatever the values. Left
    /// to choose, PostgreSQL plans such a page anew on every execution once the values' estimates make a custom
    /// plan look cheaper than the generic one, and the planning costs more than the plan saves (most of all on
    /// a partitioned table). A product filter, which no index serves, stays with the planner's choice.
    let usesGenericPlan: Bool
    /// The most trips the page holds, its last argument.
    let limit: Int
    private let bindings: PostgresBindings

    /// Whether each row carries `TripStatements.ledgerColumns` after the trip's.
    private let includesLedger: Bool

    init(
        direction: KeysetDirection, filter: AnalystTripFilter, keyRequestedAt: PostgresTimestampBound, keyID: Int64,
        limit: Int, includesLedger: Bool = false
    ) {
        let (comparison, order) = direction == .older ? ("<", "DESC") : (">", "ASC")
        let selection =
            includesLedger
            ? "\(TripStatements.columns), \(TripStatements.ledgerColumns) FROM trips "
                + "LEFT JOIN trip_receipts r ON r.trip_id = trips.id"
            : "\(TripStatements.columns) FROM trips"
        let query: PostgresQuery = """
            SELECT \(unsafeSQL: selection)
            WHERE requested_at >= \(filter.from)::timestamptz AND requested_at < \(filter.to)::timestamptz
              AND (requested_at, id) \(unsafeSQL: comparison) (\(keyRequestedAt)::timestamptz, \(keyID)::bigint)
              AND status = ANY (\(TripStatements.statuses(filter.status))::text[])\(equalityFilters: filter)
            ORDER BY requested_at \(unsafeSQL: order), id \(unsafeSQL: order)
            LIMIT \(limit)
            """
        let name =
            includesLedger
            ? "analyst_trips_\(direction)_\(filter.statementSuffix)_ledger_v1"
            : "analyst_trips_\(direction)_\(filter.statementSuffix)_v2"
        prepared = PreparedStatement(name: name, sql: query.sql, resultFormat: .binary)
        usesGenericPlan = filter.product == nil
        self.limit = limit
        bindings = query.bindings
        self.includesLedger = includesLedger
    }

    func makeBindings() -> PostgresBindings { bindings }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Trip {
        includesLedger ? try TripRowDecoder.withLedger(rows, row: row) : try TripRowDecoder.trip(rows, row: row)
    }
}

/// How many trips of all riders match the filter, counted `way`. One prepared statement per combination of
/// equality filters and per way of counting, as for the pages.
struct AnalystTripsCount: PostgresStatement {
    let prepared: PreparedStatement
    private let bindings: PostgresBindings
    private let way: TripCountWay

    init(filter: AnalystTripFilter, _ way: TripCountWay) {
        let query: PostgresQuery
        let name: String
        switch way {
        case .exact(let limit):
            query = "SELECT count(*) FROM (\(selectionOf: filter) LIMIT \(limit)) AS counted"
            name = "analyst_count_\(filter.statementSuffix)_v1"
        case .estimate:
            query = "EXPLAIN (FORMAT JSON) \(selectionOf: filter)"
            name = "analyst_estimate_\(filter.statementSuffix)_v1"
        }
        prepared = PreparedStatement(name: name, sql: query.sql)
        bindings = query.bindings
        self.way = way
    }

    func makeBindings() -> PostgresBindings { bindings }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Int64 {
        try TripCountRows.decode(rows, row: row, way: way)
    }
}

/// One row per local period and currency of the trips requested in `[from, to)` that match the filter, or with
/// a dimension one row per local period, value of that column and currency, in the value's byte order.
/// Periods are cut on local wall-clock time and turned back into instants in the same zone, so a 23-hour
/// day starts at its real local midnight.
///
/// PostgreSQL sums `bigint` columns as `numeric`, which cannot overflow; a sum outside the `bigint` range is
/// returned as NULL rather than cast (which would fail the statement), so the caller can say which total
/// did not fit. A dimension gets statements of its own, so the statement without one (which the partitions
/// of the sharded topology also run) stays as it was; they number the (period, value) buckets and return
/// only the first `TripStatsQuery.maximumBuckets + 1`, which is enough to tell that an answer is too large.
struct AnalystStats: PostgresStatement {
    let prepared: PreparedStatement
    private let bindings: PostgresBindings
    /// Whether each row carries the dimension's value as its second column.
    private let hasDimension: Bool

    init(filter: AnalystTripFilter, granularity: StatsGranularity, timeZone: String, dimension: StatsDimension? = nil) {
        let query: PostgresQuery
        if let dimension {
            query = Self.query(filter: filter, granularity: granularity, timeZone: timeZone, dimension: dimension)
            prepared = PreparedStatement(
                name: "analyst_stats_by_\(dimension.rawValue)_\(filter.statementSuffix)_v1", sql: query.sql)
        } else {
            query = Self.query(filter: filter, granularity: granularity, timeZone: timeZone)
            prepared = PreparedStatement(name: "analyst_stats_\(filter.statementSuffix)_v3", sql: query.sql)
        }
        bindings = query.bindings
        hasDimension = dimension != nil
    }

    private static func query(
        filter: AnalystTripFilter, granularity: StatsGranularity, timeZone: String
    ) -> PostgresQuery {
        """
        SELECT local_start AT TIME ZONE \(timeZone) AS bucket_start, fare_currency, trips, completed, canceled,
            \(unsafeSQL: bigintOrNull("fare_total")), \(unsafeSQL: bigintOrNull("distance_total")),
            \(unsafeSQL: bigintOrNull("completed_duration")), \(unsafeSQL: bigintOrNull("tips_total")),
            \(unsafeSQL: bigintOrNull("refunds_total"))
        FROM (
            SELECT date_trunc(\(granularity.rawValue), requested_at AT TIME ZONE \(timeZone)) AS local_start,
                fare_currency,
                \(unsafeSQL: aggregates)
            FROM trips
            WHERE requested_at >= \(filter.from)::timestamptz AND requested_at < \(filter.to)::timestamptz
              AND status = ANY (\(TripStatements.statuses(filter.status))::text[])\(equalityFilters: filter)
            GROUP BY 1, 2
        ) buckets
        ORDER BY 1, 2
        """
    }

    /// The column is one of two fixed names, so it is written into the text; `COLLATE "C"` orders its values
    /// by their bytes, whatever the database's collation.
    private static func query(
        filter: AnalystTripFilter, granularity: StatsGranularity, timeZone: String, dimension: StatsDimension
    ) -> PostgresQuery {
        let column = dimension.rawValue
        return """
            SELECT local_start AT TIME ZONE \(timeZone) AS bucket_start, \(unsafeSQL: column), fare_currency, trips,
                completed, canceled,
                \(unsafeSQL: bigintOrNull("fare_total")), \(unsafeSQL: bigintOrNull("distance_total")),
                \(unsafeSQL: bigintOrNull("completed_duration")), \(unsafeSQL: bigintOrNull("tips_total")),
                \(unsafeSQL: bigintOrNull("refunds_total"))
            FROM (
                SELECT *, dense_rank() OVER (ORDER BY local_start, \(unsafeSQL: column) COLLATE "C") AS bucket_number
                FROM (
                    SELECT date_trunc(\(granularity.rawValue), requested_at AT TIME ZONE \(timeZone)) AS local_start,
                        \(unsafeSQL: column), fare_currency,
                        \(unsafeSQL: aggregates)
                    FROM trips
                    WHERE requested_at >= \(filter.from)::timestamptz AND requested_at < \(filter.to)::timestamptz
                      AND status = ANY (\(TripStatements.statuses(filter.status))::text[])\(equalityFilters: filter)
                    GROUP BY 1, 2, 3
                ) grouped
            ) buckets
            WHERE bucket_number <= \(TripStatsQuery.maximumBuckets + 1)
            ORDER BY local_start, \(unsafeSQL: column) COLLATE "C", fare_currency
            """
    }

    /// The aggregates of one group, as numeric sums.
    static let aggregates = """
        count(*) AS trips,
                count(*) FILTER (WHERE status = 'completed') AS completed,
                count(*) FILTER (WHERE status = 'canceled') AS canceled,
                sum(fare_amount_minor) AS fare_total,
                sum(distance_m) AS distance_total,
                coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
                sum(tips_minor) AS tips_total,
                sum(refunds_minor) AS refunds_total
        """

    /// A sum as the rows return it: the bigint, or NULL when it does not fit one.
    static func bigintOrNull(_ column: String) -> String {
        "CASE WHEN \(column) BETWEEN \(Int64.min) AND \(Int64.max) THEN \(column)::bigint END"
    }

    func makeBindings() -> PostgresBindings { bindings }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> AnalystStatsRow {
        let first = hasDimension ? 2 : 1
        func count(_ column: Int) throws(PostgresError) -> Int64 {
            guard let value = try rows.int64(row, column) else { throw invalid(column) }
            return value
        }
        guard let start = try rows.timestampMicros(row, 0) else { throw invalid(0) }
        var dimensionValue: String?
        if hasDimension {
            guard let value = try rows.string(row, 1) else { throw invalid(1) }
            dimensionValue = value
        }
        guard let code = try rows.string(row, first), let currency = CurrencyCode(code) else { throw invalid(first) }
        return AnalystStatsRow(
            startMicros: start, dimensionValue: dimensionValue, currency: currency, trips: try count(first + 1),
            completed: try count(first + 2), canceled: try count(first + 3), fareTotal: try rows.int64(row, first + 4),
            distanceTotal: try rows.int64(row, first + 5), completedDuration: try rows.int64(row, first + 6),
            tipsTotal: try rows.int64(row, first + 7), refundsTotal: try rows.int64(row, first + 8)
        )
    }

    private func invalid(_ column: Int) -> PostgresError {
        PostgresError(kind: .decoding, message: "stats column \(column) has an unexpected value")
    }
}

/// One partition's share of `AnalystStats` on the sharded topology, for SQL clients of the proxy (whose
/// `analyst_stats_parts_*` functions return it from every partition; the service runs `AnalystStats` on the
/// partitions itself): the aggregates per local period (and value of the dimension) and currency as numeric sums,
/// for the caller to add up over the partitions and cast as `AnalystStats` does. Its arguments are granularity,
/// zone, window, statuses, then the filter's values, so the zone is always `$2`.
struct AnalystStatsParts {
    let prepared: PreparedStatement
    let bindings: PostgresBindings

    init(filter: AnalystTripFilter, granularity: StatsGranularity, timeZone: String, dimension: StatsDimension?) {
        let column = dimension.map { "\($0.rawValue), " } ?? ""
        let query: PostgresQuery = """
            SELECT date_trunc(\(granularity.rawValue), requested_at AT TIME ZONE \(timeZone)) AS local_start,
                \(unsafeSQL: column)fare_currency,
                \(unsafeSQL: AnalystStats.aggregates)
            FROM trips
            WHERE requested_at >= \(filter.from)::timestamptz AND requested_at < \(filter.to)::timestamptz
              AND status = ANY (\(TripStatements.statuses(filter.status))::text[])\(equalityFilters: filter)
            GROUP BY \(unsafeSQL: dimension == nil ? "1, 2" : "1, 2, 3")
            """
        let by = dimension.map { "by_\($0.rawValue)_" } ?? ""
        prepared = PreparedStatement(
            name: "analyst_stats_parts_\(by)\(filter.statementSuffix)_v1", sql: query.sql, resultFormat: .binary)
        bindings = query.bindings
    }

}

/// The aggregates of one period's trips (of one dimension value, when the query had a dimension) in one
/// currency; a total is nil when it is outside the Int64 range.
struct AnalystStatsRow: Hashable, Sendable {
    let startMicros: Int64
    let dimensionValue: String?
    let currency: CurrencyCode
    let trips: Int64
    let completed: Int64
    let canceled: Int64
    let fareTotal: Int64?
    let distanceTotal: Int64?
    let completedDuration: Int64?
    let tipsTotal: Int64?
    let refundsTotal: Int64?
}

extension AnalystTripFilter {
    /// Which optional equality filters are set, as part of a statement name: one name per statement text.
    var statementSuffix: String {
        "c\(city == nil ? 0 : 1)p\(product == nil ? 0 : 1)r\(riderID == nil ? 0 : 1)"
    }
}

extension PostgresQuery.StringInterpolation {
    /// `SELECT 1 FROM trips WHERE ...`: the trips the filter matches, which the counts count.
    fileprivate mutating func appendInterpolation(selectionOf filter: AnalystTripFilter) {
        appendLiteral("SELECT 1 FROM trips WHERE requested_at >= ")
        appendInterpolation(filter.from)
        appendLiteral("::timestamptz AND requested_at < ")
        appendInterpolation(filter.to)
        appendLiteral("::timestamptz AND status = ANY (")
        appendInterpolation(TripStatements.statuses(filter.status))
        appendLiteral("::text[])")
        appendInterpolation(equalityFilters: filter)
    }

    /// ` AND col = $n` for each optional equality filter of `filter` that is set: city, product, rider.
    fileprivate mutating func appendInterpolation(equalityFilters filter: AnalystTripFilter) {
        if let city = filter.city {
            appendLiteral(" AND city = ")
            appendInterpolation(city)
        }
        if let product = filter.product {
            appendLiteral(" AND product = ")
            appendInterpolation(product)
        }
        if let riderID = filter.riderID {
            appendLiteral(" AND rider_id = ")
            appendInterpolation(riderID)
        }
    }
}
