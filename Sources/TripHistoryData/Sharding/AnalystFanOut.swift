import TripHistoryDomain

/// The analysts' reads on the sharded topology: each the one-node statement run on every partition (or, with a
/// rider, on the rider's one), and the partitions' answers merged into what one node answers: pages here, counts
/// and stats on the proxy (the partition function of the statement's name), by SQL that only adds up and casts.
enum AnalystFanOut {
    /// A keyset page: the first `limit` trips in the page's order among the partitions' own first trips (`pages`,
    /// each partition's page of at most `share` trips), or nil when that may lack a trip. Exact, since
    /// (requested_at, id) is one order over all partitions (ids are unique across them), unless a partition that
    /// returned all `share` trips asked of it (fewer than `limit`) ends before the page's last row: only such a
    /// partition can hold a trip the page lacks, and every partition is then asked again for `limit`.
    static func merge(_ pages: [[Trip]], share: Int, limit: Int, direction: KeysetDirection) -> [Trip]? {
        let precedes: (TripKey, TripKey) -> Bool = direction == .older ? { $0 > $1 } : { $0 < $1 }
        let ordered = pages.joined().sorted { precedes(TripKey($0), TripKey($1)) }
        if share < limit {
            let rank = Dictionary(uniqueKeysWithValues: ordered.enumerated().map { ($1.id, $0 + 1) })
            for page in pages where page.count == share {
                guard let lastRank = page.compactMap({ rank[$0.id] }).max(), lastRank >= limit else { return nil }
            }
        }
        return Array(ordered.prefix(limit))
    }

    /// The rows each of `partitions` is first asked for toward a page of `limit`: its expected count when the
    /// page's trips spread evenly over the partitions, plus three standard deviations and one, at most `limit`.
    static func share(of limit: Int, among partitions: Int) -> Int {
        guard partitions > 1, limit > 0 else { return limit }
        let fraction = 1 / Double(partitions)
        let expected = Double(limit) * fraction
        let spread = 3 * (Double(limit) * fraction * (1 - fraction)).squareRoot()
        return min(limit, Int((expected + spread).rounded(.up)) + 1)
    }

    /// An exact count capped at its limit (the statement's last argument): the partitions' capped counts added
    /// up and capped again, equal to one node's up to the cap and the cap whenever one node's reaches it.
    static func count(_ statement: AnalystTripsCount) -> ProxyCall<AnalystTripsCount> {
        merged(statement) { source, limit in
            "SELECT least(coalesce(sum(t.n), 0), \(limit))::bigint FROM \(source) AS t(n)"
        }
    }

    /// `statement`'s call whose `sql` merges the call of its partition function (`source`, the function with the
    /// statement's arguments), given the placeholder of its last argument, which is the pages' and counts' limit.
    private static func merged<Statement: PostgresStatement>(
        _ statement: Statement, sql: (_ source: String, _ limit: String) -> String
    ) -> ProxyCall<Statement> {
        let name = statement.prepared.name
        let arguments = statement.makeBindings()
        return ProxyCall(
            statement, name: name, sql: sql("\(name)(\(placeholders(arguments.count)))", "$\(arguments.count)"),
            arguments: arguments)
    }

    /// The stats rows `AnalystStats` returns on one node: the partitions' counts and numeric sums
    /// (`AnalystStatsParts`) added per local period (and dimension value) and currency, turned into instants in
    /// the zone and cast to bigint (NULL outside its range); with a dimension, only the first
    /// `TripStatsQuery.maximumBuckets + 1` (period, value) buckets, in the value's byte order.
    static func stats(_ query: TripStatsQuery) -> ProxyCall<AnalystStats> {
        let statement = AnalystStats(
            filter: query.filter, granularity: query.granularity, timeZone: query.timeZone,
            dimension: query.dimension)
        let parts = AnalystStatsParts(
            filter: query.filter, granularity: query.granularity, timeZone: query.timeZone,
            dimension: query.dimension)
        let name = parts.prepared.name
        let source = "\(name)(\(placeholders(parts.bindings.count)))"
        let sums = """
            sum(p.trips)::bigint AS trips, sum(p.completed)::bigint AS completed,
                sum(p.canceled)::bigint AS canceled, sum(p.fare_total) AS fare_total,
                sum(p.distance_total) AS distance_total, sum(p.completed_duration) AS completed_duration,
                sum(p.tips_total) AS tips_total, sum(p.refunds_total) AS refunds_total
            """
        let totals = ["fare_total", "distance_total", "completed_duration", "tips_total", "refunds_total"]
            .map(AnalystStats.bigintOrNull).joined(separator: ", ")
        let sql: String
        if let dimension = query.dimension {
            let column = dimension.rawValue
            sql = """
                SELECT local_start AT TIME ZONE $2, \(column), fare_currency, trips, completed, canceled, \(totals)
                FROM (
                    SELECT *, dense_rank() OVER (ORDER BY local_start, \(column) COLLATE "C") AS bucket_number
                    FROM (
                        SELECT p.local_start, p.value AS \(column), p.fare_currency, \(sums)
                        FROM \(source) AS p
                        GROUP BY 1, 2, 3
                    ) grouped
                ) buckets
                WHERE bucket_number <= \(TripStatsQuery.maximumBuckets + 1)
                ORDER BY local_start, \(column) COLLATE "C", fare_currency
                """
        } else {
            sql = """
                SELECT local_start AT TIME ZONE $2, fare_currency, trips, completed, canceled, \(totals)
                FROM (
                    SELECT p.local_start, p.fare_currency, \(sums)
                    FROM \(source) AS p
                    GROUP BY 1, 2
                ) buckets
                ORDER BY 1, 2
                """
        }
        return ProxyCall(statement, name: name, sql: sql, arguments: parts.bindings)
    }
}

/// The planner's estimate of the trips an analyst filter matches, added up over the partitions (each partition's
/// `trip_history_analyst_estimate`: the rows of `EXPLAIN` of the selection `AnalystTripsCount` counts there).
struct PartitionedTripEstimate: PostgresPreparedStatement {
    static let name = "proxy_trip_history_analyst_estimate"
    static let sql = """
        SELECT coalesce(sum(t.n), 0)::bigint
        FROM trip_history_analyst_estimate($1::timestamptz, $2::timestamptz, $3::text[], $4, $5, $6::bigint) AS t(n)
        """
    static let resultFormat = PreparedStatement.ResultFormat.binary

    let filter: AnalystTripFilter

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 6)
        bindings.append(PostgresTimestampBound(filter.from))
        bindings.append(PostgresTimestampBound(filter.to))
        bindings.append(TripStatements.statuses(filter.status))
        bindings.append(filter.city)
        bindings.append(filter.product)
        bindings.append(filter.riderID)
        return bindings
    }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Int64 {
        guard let estimate = try rows.int64(row, 0) else {
            throw PostgresError(kind: .decoding, message: "an estimate without rows")
        }
        return estimate
    }
}
