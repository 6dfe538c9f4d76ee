import Foundation
import TripHistoryDomain

/// How a count statement counts: row by row up to `limit` (a LIMITed subquery, so the cost is bounded however
/// many trips match), or the planner's estimate from `EXPLAIN` of the same selection, which reads statistics
/// and no rows.
enum TripCountWay: Hashable, Sendable {
    case exact(limit: Int64)
    case estimate
}

/// How many of a rider's trips requested in `[from, to)` have one of `statuses`, counted `way`: an exact
/// count is an index-only range scan of `trips_rider_history` on a vacuumed table.
struct RiderTripsCount: PostgresStatement {
    private static let selection = """
        SELECT 1 FROM trips
        WHERE rider_id = $1 AND requested_at >= $2::timestamptz AND requested_at < $3::timestamptz
          AND status = ANY ($4::text[])
        """
    private static let exact = PreparedStatement(
        name: "trips_count_v1", sql: "SELECT count(*) FROM (\(selection) LIMIT $5) AS counted")
    private static let estimate = PreparedStatement(
        name: "trips_estimate_v1", sql: "EXPLAIN (FORMAT JSON) \(selection)")

    let riderID: RiderID
    let filter: TripFilter
    let way: TripCountWay

    var prepared: PreparedStatement {
        switch way {
        case .exact: Self.exact
        case .estimate: Self.estimate
        }
    }

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 5)
        bindings.append(riderID)
        bindings.append(filter.range.from.map(PostgresTimestampBound.init) ?? .negativeInfinity)
        bindings.append(filter.range.to.map(PostgresTimestampBound.init) ?? .infinity)
        bindings.append(TripStatements.statuses(filter.status))
        if case .exact(let limit) = way { bindings.append(limit) }
        return bindings
    }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Int64 {
        try TripCountRows.decode(rows, row: row, way: way)
    }
}

/// Decodes the answers of the trip counts, rider and analyst alike.
enum TripCountRows {
    private struct Explained: Decodable {
        struct Plan: Decodable {
            let rows: Double

            enum CodingKeys: String, CodingKey {
                case rows = "Plan Rows"
            }
        }

        let plan: Plan

        enum CodingKeys: String, CodingKey {
            case plan = "Plan"
        }
    }

    /// Row `row` of a count statement that counted `way`.
    static func decode(_ rows: PostgresRows, row: Int, way: TripCountWay) throws(PostgresError) -> Int64 {
        switch way {
        case .exact: try counted(rows, row: row)
        case .estimate: try planned(rows, row: row)
        }
    }

    /// The `count(*)` of an exact count.
    private static func counted(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Int64 {
        guard let count = try rows.int64(row, 0) else {
            throw PostgresError(kind: .decoding, message: "count(*) returned NULL")
        }
        return count
    }

    /// The top plan node's row estimate in `EXPLAIN (FORMAT JSON)` output.
    private static func planned(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Int64 {
        guard let text = try rows.string(row, 0),
            let explained = try? JSONDecoder().decode([Explained].self, from: Data(text.utf8)),
            let estimate = explained.first?.plan.rows, estimate.isFinite, estimate >= 0, estimate < 9.2e18
        else {
            throw PostgresError(kind: .decoding, message: "EXPLAIN returned no plan row estimate")
        }
        return Int64(estimate.rounded())
    }
}
