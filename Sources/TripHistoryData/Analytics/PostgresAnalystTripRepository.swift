import Foundation
import Logging
import TripHistoryDomain

/// The analyst reads on PostgreSQL: keyset pages and export batches over all riders, and per-period aggregates.
///
/// Every call runs in its own read-only transaction with `SET LOCAL statement_timeout` set to the analyst
/// timeout, which may be longer than the pool's default for rider requests; the setting ends with the
/// transaction, so the connection goes back to the pool with the rider default. A statement timeout surfaces
/// as `AnalystQueryError.timedOut`; a zone PostgreSQL does not know as `ValidationError` on `tz`; any other
/// database failure as `TripHistoryError.unavailable(retryAfterSeconds: 1)`. SQL and server messages are only
/// logged.
public struct PostgresAnalystTripRepository: AnalystTripRepository {
    private let pool: PostgresConnectionPool
    private let statementTimeoutMilliseconds: Int
    private let logger: Logger

    /// `statementTimeout` bounds each analyst statement; at least one millisecond.
    public init(
        pool: PostgresConnectionPool, statementTimeout: Duration = .seconds(30),
        logger: Logger = Logger(label: "trip-history.analyst")
    ) {
        self.pool = pool
        let components = statementTimeout.components
        self.statementTimeoutMilliseconds = max(
            1, Int(components.seconds) * 1000 + Int(components.attoseconds / 1_000_000_000_000_000)
        )
        self.logger = logger
    }

    public func trips(matching query: AnalystTripQuery) async throws -> [Trip] {
        let filter = query.filter
        let direction: AnalystStatements.ListDirection = query.position?.direction == .newer ? .newer : .older
        let statement = AnalystStatements.list(direction: direction, filters: Self.filters(filter))
        let parameters: [String?] =
            [
                Self.time(filter.from), Self.time(filter.to),
                // A first read starts below a key greater than every stored one.
                query.position.map { PostgresTimestamp.format(micros: $0.key.requestedAtMicros) } ?? "infinity",
                query.position.map { $0.key.id.description } ?? String(Int64.max),
                Self.statuses(filter.status),
                String(max(query.fetchLimit, 0)),
            ] + Self.filterParameters(filter)
        return try await run("analyst list") { connection in
            try TripRowDecoder.trips(try connection.execute(statement, parameters))
        }
    }

    public func stats(matching query: TripStatsQuery) async throws -> [TripStatsBucket] {
        let filter = query.filter
        let statement = AnalystStatements.stats(filters: Self.filters(filter))
        let parameters: [String?] =
            [
                Self.time(filter.from), Self.time(filter.to), Self.statuses(filter.status),
                query.granularity.rawValue, query.timeZone,
            ] + Self.filterParameters(filter)
        return try await run("analyst stats") { connection in
            try Self.buckets(try connection.execute(statement, parameters))
        }
    }

    /// Folds the per-currency rows of each period (sorted by period) into one bucket per period.
    private static func buckets(_ rows: PostgresRows) throws(PostgresError) -> [TripStatsBucket] {
        struct Partial {
            var start: Int64
            var trips: Int64 = 0
            var completed: Int64 = 0
            var canceled: Int64 = 0
            var fares: [CurrencyCode: Int64] = [:]
            var distance: Int64 = 0
            var duration: Int64 = 0

            var bucket: TripStatsBucket {
                TripStatsBucket(
                    start: Timestamp.date(micros: start), trips: trips, completed: completed, canceled: canceled,
                    fareTotals: fares, distanceMeters: distance, completedDurationSeconds: duration
                )
            }
        }
        func integer(_ row: Int, _ column: Int) throws(PostgresError) -> Int64 {
            guard let value = try rows.int64(row, column) else { throw invalid(column) }
            return value
        }
        var buckets: [TripStatsBucket] = []
        var current: Partial?
        for row in 0..<rows.count {
            guard let start = try rows.timestampMicros(row, 0) else { throw invalid(0) }
            guard let code = try rows.string(row, 1), let currency = CurrencyCode(code) else { throw invalid(1) }
            if let partial = current, partial.start != start {
                buckets.append(partial.bucket)
                current = nil
            }
            var partial = current ?? Partial(start: start)
            partial.trips += try integer(row, 2)
            partial.completed += try integer(row, 3)
            partial.canceled += try integer(row, 4)
            partial.fares[currency, default: 0] += try integer(row, 5)
            partial.distance += try integer(row, 6)
            partial.duration += try integer(row, 7)
            current = partial
        }
        if let current { buckets.append(current.bucket) }
        return buckets
    }

    private static func invalid(_ column: Int) -> PostgresError {
        PostgresError(kind: .decoding, message: "stats column \(column) has an unexpected value")
    }

    private static func filters(_ filter: AnalystTripFilter) -> AnalystStatements.Filters {
        AnalystStatements.Filters(
            city: filter.city != nil, product: filter.product != nil, rider: filter.riderID != nil)
    }

    /// The values of the present optional filters, in the order `AnalystStatements.Filters` numbers them.
    private static func filterParameters(_ filter: AnalystTripFilter) -> [String?] {
        let present: [String] = [filter.city, filter.product, filter.riderID?.description].compactMap { $0 }
        return present
    }

    private static func statuses(_ status: TripStatus?) -> String {
        switch status {
        case nil: return "{completed,canceled}"
        case .completed: return "{completed}"
        case .canceled: return "{canceled}"
        }
    }

    private static func time(_ date: Date) -> String {
        PostgresTimestamp.format(micros: Timestamp.micros(date))
    }

    private func run<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        let timeout = statementTimeoutMilliseconds
        do {
            return try await pool.withConnection { connection in
                try connection.transaction { connection in
                    try connection.execute(
                        unsafeSQL: "SET TRANSACTION READ ONLY; SET LOCAL statement_timeout = \(timeout)")
                    return try body(connection)
                }
            }
        } catch let error as PostgresError where error.isStatementTimeout {
            logger.notice("analyst query timed out", metadata: ["operation": "\(operation)"])
            throw AnalystQueryError.timedOut
        } catch let error as PostgresError where error.sqlState == "22023" {
            // date_trunc and AT TIME ZONE raise invalid_parameter_value for a zone the server does not know.
            throw ValidationError(field: "tz", reason: "is not a time zone the database knows")
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            logger.warning("database unavailable", metadata: ["operation": "\(operation)", "error": "\(error)"])
            throw TripHistoryError.unavailable(retryAfterSeconds: 1)
        }
    }
}
