import Foundation
public import Logging
public import TripHistoryDomain

/// The analyst reads on PostgreSQL: keyset pages and export batches over all riders, and per-period aggregates.
///
/// Every call runs in its own read-only transaction with `SET LOCAL statement_timeout` set to the analyst
/// timeout, which may be longer than the pool's default for rider requests; the setting ends with the
/// transaction, so the connection goes back to the pool with the rider default. A statement timeout surfaces
/// as `AnalystQueryError.timedOut`; a zone PostgreSQL does not know as `ValidationError` on `tz`; a stats
/// total beyond Int64 as `ValidationError` on `from`; any other database failure as
/// `TripHistoryError.unavailable(retryAfterSeconds: 1)`. SQL and server messages are only logged.
/// With `reads`, every call runs on the reader while it is up (`PostgresReadRouting.analystRead`), on
/// `readerPool` when given, so the analyst API keeps pools of its own on both sides.
///
/// With `routes` (the sharded topology's partitions), `pool` reaches its proxy. Pages both ways and export
/// batches ask every partition at once, on the partitions' own analyst pools, for its share of the page, merged
/// here into what one node answers (`AnalystFanOut.merge`); counts and stats ask every partition the one-node
/// statement the same way and add the answers up here; the analysts' feed is the proxy's fan-out, with a
/// position per partition (`PartitionedAnalystFeed`).
public struct PostgresAnalystTripRepository: AnalystTripRepository {
    private let pool: PostgresConnectionPool
    private let reads: PostgresReadRouting?
    private let readerPool: PostgresConnectionPool?
    private let routes: PartitionRoutes?
    private var sharded: Bool { routes != nil }
    private let statementTimeoutMilliseconds: Int
    /// The client's wait for each statement's answer: the analyst statement timeout plus the pool's grace.
    private let queryTimeout: Duration
    private let logger: Logger

    /// `statementTimeout` bounds each analyst statement; at least one millisecond.
    public init(
        pool: PostgresConnectionPool, reads: PostgresReadRouting? = nil, readerPool: PostgresConnectionPool? = nil,
        statementTimeout: Duration = .seconds(30), routes: PartitionRoutes? = nil,
        logger: Logger = Logger(label: "trip-history.analyst")
    ) {
        self.pool = pool
        self.reads = reads
        self.readerPool = readerPool
        self.routes = routes
        self.statementTimeoutMilliseconds = max(1, statementTimeout.wholeMilliseconds)
        self.queryTimeout = pool.configuration.queryTimeout(
            statementTimeout: .milliseconds(statementTimeoutMilliseconds))
        self.logger = logger
    }

    public func trips(matching query: AnalystTripQuery) async throws -> [Trip] {
        let start = KeysetStart(after: query.position?.key, to: PostgresTimestampBound(query.filter.to))
        let direction = KeysetDirection(of: query.position)
        func page(limit: Int) -> AnalystTripsPage {
            AnalystTripsPage(
                direction: direction, filter: query.filter, keyRequestedAt: start.requestedAt, keyID: start.id,
                limit: limit, includesLedger: query.includesLedger)
        }
        let statement = page(limit: max(query.fetchLimit, 0))
        guard let routes else {
            return try await run("analyst list", genericPlan: statement.usesGenericPlan) { connection in
                try connection.execute(statement)
            }
        }
        let numbers = partitions(of: query.filter, in: routes)
        let share = AnalystFanOut.share(of: statement.limit, among: numbers.count)
        let shares = page(limit: share)
        let firsts = try await onPartitions(
            "analyst list", numbers, of: routes, genericPlan: statement.usesGenericPlan
        ) { try $0.execute(shares) }
        if let page = AnalystFanOut.merge(firsts, share: share, limit: statement.limit, direction: direction) {
            return page
        }
        let full = try await onPartitions(
            "analyst list", numbers, of: routes, genericPlan: statement.usesGenericPlan
        ) { try $0.execute(statement) }
        return AnalystFanOut.merge(full, limit: statement.limit, direction: direction)
    }

    /// How many trips match: counted up to `TripCount.exactLimit` plus one for `.exact`, the planner's estimate
    /// for `.planned` and past that limit; in one read-only transaction like the pages. On the sharded topology the
    /// partitions' capped counts are added up (and capped by `TripCount.exact`), and their estimates too.
    public func count(matching filter: AnalystTripFilter, mode: TripCountMode) async throws -> TripCount {
        let estimate = AnalystTripsCount(filter: filter, .estimate)
        let exact = AnalystTripsCount(filter: filter, .exact(limit: TripCount.exactLimit + 1))
        guard let routes else {
            return try await run("analyst count") { connection in
                let estimated = { try connection.executeFirst(estimate) ?? 0 }
                switch mode {
                case .planned:
                    return TripCount(value: try estimated(), accuracy: .planned)
                case .exact:
                    return try TripCount.exact(counted: try connection.executeFirst(exact) ?? 0)
                        ?? .beyondExactLimit(estimate: estimated())
                }
            }
        }
        let numbers = partitions(of: filter, in: routes)
        func total(_ statement: AnalystTripsCount) async throws -> Int64 {
            AnalystFanOut.total(
                try await onPartitions("analyst count", numbers, of: routes, genericPlan: false) { connection in
                    try connection.executeFirst(statement) ?? 0
                })
        }
        switch mode {
        case .planned:
            return TripCount(value: try await total(estimate), accuracy: .planned)
        case .exact:
            if let count = TripCount.exact(counted: try await total(exact)) { return count }
            return .beyondExactLimit(estimate: try await total(estimate))
        }
    }

    /// One bucket per period (and dimension value) with matching trips. A total that does not fit in Int64 (only
    /// trips stored outside `NewTrip`'s bounds can add up to one) is refused with `ValidationError` on `from`,
    /// the window, rather than answered wrong: an analyst can narrow the window or add filters. On the sharded
    /// topology each partition answers the one-node statement, and the rows are added up here.
    public func stats(matching query: TripStatsQuery) async throws -> [TripStatsBucket] {
        let statement = AnalystStats(
            filter: query.filter, granularity: query.granularity, timeZone: query.timeZone,
            dimension: query.dimension)
        let rows: [AnalystStatsRow]
        if let routes {
            let answers = try await onPartitions(
                "analyst stats", partitions(of: query.filter, in: routes), of: routes, genericPlan: false
            ) { connection in try connection.execute(statement) }
            rows = AnalystFanOut.stats(
                answers, bucketLimit: query.dimension == nil ? nil : TripStatsQuery.maximumBuckets + 1)
        } else {
            rows = try await run("analyst stats") { connection in try connection.execute(statement) }
        }
        do throws(TotalOutOfRange) {
            return try Self.buckets(rows)
        } catch {
            throw ValidationError(
                field: "from",
                reason: "and to cover trips whose \(error.total) in one period exceeds \(Int64.max), more than any "
                    + "real trips add up to; narrow the window or filter by city, product or rider_id"
            )
        }
    }

    /// The partitions holding the trips `filter` can match: the rider's one, or every one.
    private func partitions(of filter: AnalystTripFilter, in routes: PartitionRoutes) -> [Int] {
        filter.riderID.map { [routes.number(of: $0)] } ?? Array(routes.partitions.indices)
    }

    public func changes(after position: AnalystFeedPosition, limit: Int) async throws -> AnalystChangePage {
        switch (position, sharded) {
        case (.node(let position), false):
            let statement = AnalystChangesPage(after: position, limit: max(limit, 0) + 1)
            let rows = try await run("analyst changes") { connection in try connection.execute(statement) }
            let page = try ChangeFeedRow.page(rows, limit: limit, after: position)
            return AnalystChangePage(changes: page.changes, next: .node(page.next), hasMore: page.hasMore)
        case (.partitioned(let topology, let positions), true):
            let statement = PartitionedAnalystChanges(after: positions, limit: max(limit, 0) + 1)
            let rows = try await run("analyst changes") { connection in try connection.execute(statement) }
            return try PartitionedAnalystFeed.page(rows, topology: topology, after: positions, limit: limit)
        default:
            // A token of one PostgreSQL on the sharded topology, or the other way round.
            throw TripHistoryError.feedTopologyChanged
        }
    }

    /// Before every change of the transactions still running or yet to come: (their oldest id, 0, 0), on each
    /// partition of the sharded topology.
    public func currentChangePosition() async throws -> AnalystFeedPosition {
        if sharded {
            let rows = try await run("analyst changes now") { connection in
                try connection.execute(PartitionedAnalystFeedNow())
            }
            return try PartitionedAnalystFeed.now(rows)
        }
        let oldest = try await run("analyst changes now") { connection in
            try connection.executeFirst(OldestRunningTransaction())
        }
        guard let oldest else { throw TripHistoryError.unavailable(retryAfterSeconds: 1) }
        return .node(AnalystChangePosition(transaction: oldest, riderID: 0, sequence: 0))
    }

    /// A period's total that does not fit in Int64, named as in the stats response.
    struct TotalOutOfRange: Error {
        let total: String
    }

    /// Folds the per-currency rows of each bucket (sorted by period and dimension value) into one bucket per
    /// period and value, with checked sums.
    static func buckets(_ rows: [AnalystStatsRow]) throws(TotalOutOfRange) -> [TripStatsBucket] {
        struct Partial {
            var start: Int64
            var dimensionValue: String?
            var trips: Int64 = 0
            var completed: Int64 = 0
            var canceled: Int64 = 0
            var fares: [CurrencyCode: Int64] = [:]
            var distance: Int64 = 0
            var duration: Int64 = 0
            var tips: [CurrencyCode: Int64] = [:]
            var refunds: [CurrencyCode: Int64] = [:]

            var bucket: TripStatsBucket {
                TripStatsBucket(
                    start: Timestamp.date(micros: start), dimensionValue: dimensionValue, trips: trips,
                    completed: completed, canceled: canceled,
                    fareTotals: fares, tipTotals: tips, refundTotals: refunds, distanceMeters: distance,
                    completedDurationSeconds: duration
                )
            }
        }
        func add(_ value: Int64?, to sum: inout Int64, _ total: String) throws(TotalOutOfRange) {
            guard let value else { throw TotalOutOfRange(total: total) }
            let (result, overflow) = sum.addingReportingOverflow(value)
            guard !overflow else { throw TotalOutOfRange(total: total) }
            sum = result
        }
        var buckets: [TripStatsBucket] = []
        var current: Partial?
        for row in rows {
            if let partial = current, partial.start != row.startMicros || partial.dimensionValue != row.dimensionValue {
                buckets.append(partial.bucket)
                current = nil
            }
            var partial = current ?? Partial(start: row.startMicros, dimensionValue: row.dimensionValue)
            try add(row.trips, to: &partial.trips, "trips")
            try add(row.completed, to: &partial.completed, "completed")
            try add(row.canceled, to: &partial.canceled, "canceled")
            try add(row.fareTotal, to: &partial.fares[row.currency, default: 0], "total_fare_minor.\(row.currency)")
            try add(row.distanceTotal, to: &partial.distance, "total_distance_m")
            try add(row.completedDuration, to: &partial.duration, "mean_duration_s")
            try add(row.tipsTotal, to: &partial.tips[row.currency, default: 0], "total_tips_minor.\(row.currency)")
            try add(
                row.refundsTotal, to: &partial.refunds[row.currency, default: 0], "total_refunds_minor.\(row.currency)")
            current = partial
        }
        if let current { buckets.append(current.bucket) }
        return buckets
    }

    /// Runs `body` in the read-only transaction the type's documentation describes; with `genericPlan`, its
    /// prepared statements execute their generic plans (`plan_cache_mode`, for the transaction only).
    private func run<T: Sendable>(
        _ operation: String, genericPlan: Bool = false, _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        let transaction = readOnlyTransaction(genericPlan: genericPlan, body)
        return try await withDomainErrors(operation, logger: logger, translate: translation(operation)) {
            guard let reads else { return try await pool.withConnection { try transaction($0, nil) } }
            return try await reads.analystRead(writer: pool, reader: readerPool ?? reads.reader) { pool, required in
                try await pool.withConnection { try transaction($0, required) }
            }
        }
    }

    /// Runs `body` on each of the partitions `numbers` of `routes` at once, on the partition's own analyst pool:
    /// on its standby when the analysts' reads go to the reader (its standby's position is each partition's own,
    /// so none is required here), else on its primary. Those pools run with the analyst statement timeout as their
    /// own, so `body`, one statement, needs the read-only transaction of `run` only for `genericPlan`: one round
    /// trip to each partition instead of four. Answers in the order of `numbers`.
    private func onPartitions<T: Sendable>(
        _ operation: String, _ numbers: [Int], of routes: PartitionRoutes, genericPlan: Bool,
        _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> [T] {
        let transaction = readOnlyTransaction(genericPlan: genericPlan, body)
        let run: @Sendable (PostgresConnection) throws -> T = { connection in
            genericPlan ? try transaction(connection, nil) : try body(connection)
        }
        let proxyReader = readerPool ?? reads?.reader
        func fanOut(onReaders: Bool) async throws -> [T] {
            try await withThrowingTaskGroup(of: (Int, T).self) { group in
                for (index, number) in numbers.enumerated() {
                    let partition = routes.partitions[number]
                    let pool = onReaders ? partition.analystReader ?? partition.analyst : partition.analyst
                    group.addTask {
                        (index, try await routes.read(pool) { try await $0.withConnection(run) })
                    }
                }
                var answers = [T?](repeating: nil, count: numbers.count)
                for try await (index, answer) in group { answers[index] = answer }
                return answers.compactMap { $0 }
            }
        }
        return try await withDomainErrors(operation, logger: logger, translate: translation(operation)) {
            guard let reads else { return try await fanOut(onReaders: false) }
            return try await reads.analystRead(writer: pool, reader: proxyReader) { chosen, _ in
                try await fanOut(onReaders: proxyReader != nil && chosen === proxyReader)
            }
        }
    }

    /// `body` in a read-only transaction under the analyst statement timeout, with `genericPlan` executing its
    /// prepared statements' generic plans. With a required replay position, the connection's own server must
    /// have replayed that far (a server not in recovery counts as having replayed everything) before `body` runs
    /// in the same transaction.
    private func readOnlyTransaction<T>(
        genericPlan: Bool, _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) -> @Sendable (PostgresConnection, WALPosition?) throws -> T {
        let settings =
            "SET TRANSACTION READ ONLY; SET LOCAL statement_timeout = \(statementTimeoutMilliseconds)"
            + (genericPlan ? "; SET LOCAL plan_cache_mode = force_generic_plan" : "")
        let queryTimeout = self.queryTimeout
        return { connection, requiredReplay in
            try connection.withQueryTimeout(queryTimeout) {
                try connection.transaction { connection in
                    try connection.execute(unsafeSQL: settings)
                    if let requiredReplay {
                        let replayed = try connection.executeFirst(ReplayPosition()) ?? nil
                        guard (replayed ?? .end) >= requiredReplay else { throw ReplicaBehind() }
                    }
                    return try body(connection)
                }
            }
        }
    }

    /// The analysts' errors for `operation`: a statement timeout, and a zone the server does not know.
    private func translation(_ operation: String) -> (PostgresError) -> (any Error)? {
        let logger = self.logger
        return { error in
            if error.isStatementTimeout {
                logger.notice("analyst query timed out", metadata: ["operation": "\(operation)"])
                return AnalystQueryError.timedOut
            }
            // date_trunc and AT TIME ZONE raise invalid_parameter_value for a zone the server does not know.
            if error.sqlState == "22023" {
                return ValidationError(field: "tz", reason: "is not a time zone the database knows")
            }
            return nil
        }
    }
}
