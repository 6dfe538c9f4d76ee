import Foundation
import TripHistoryDomain

/// How many of a rider's trips requested in `[from, to)` have one of `statuses`, counted up to `limit`: the
/// subquery stops at `limit` rows, so the cost is bounded however many trips match (an index-only range scan
/// of `trips_rider_history` on a vacuumed table).
struct RiderTripsCount: PostgresPreparedStatement {
    static let name = "trips_count_v1"
    static let sql = """
        SELECT count(*) FROM (
            SELECT 1 FROM trips
            WHERE rider_id = $1 AND requested_at >= $2::timestamptz AND requested_at < $3::timestamptz
              AND status = ANY ($4::text[])
            LIMIT $5
        ) AS counted
        """

    let riderID: RiderID
    let filter: TripFilter
    let limit: Int64

    func makeBindings() -> PostgresBindings {
        var bindings = RiderTripsCount.filterBindings(riderID: riderID, filter: filter, capacity: 5)
        bindings.append(limit)
        return bindings
    }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Int64 {
        try TripCountRows.counted(rows, row: row)
    }

    /// `$1...$4` of both rider counts: the rider, the bounds (open ones as infinities) and the statuses.
    static func filterBindings(riderID: RiderID, filter: TripFilter, capacity: Int) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: capacity)
        bindings.append(riderID)
        bindings.append(filter.range.from.map(PostgresTimestampBound.init) ?? .negativeInfinity)
        bindings.append(filter.range.to.map(PostgresTimestampBound.init) ?? .infinity)
        bindings.append(TripStatements.statuses(filter.status))
        return bindings
    }
}

/// The planner's estimate of how many of a rider's trips match: `EXPLAIN` of the same selection, planned with
/// the bound values, which reads statistics and no rows.
struct RiderTripsEstimate: PostgresPreparedStatement {
    static let name = "trips_estimate_v1"
    static let sql = """
        EXPLAIN (FORMAT JSON) SELECT 1 FROM trips
        WHERE rider_id = $1 AND requested_at >= $2::timestamptz AND requested_at < $3::timestamptz
          AND status = ANY ($4::text[])
        """

    let riderID: RiderID
    let filter: TripFilter

    func makeBindings() -> PostgresBindings {
        RiderTripsCount.filterBindings(riderID: riderID, filter: filter, capacity: 4)
    }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Int64 {
        try TripCountRows.planned(rows, row: row)
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

    /// The `count(*)` of an exact count.
    static func counted(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Int64 {
        guard let count = try rows.int64(row, 0) else {
            throw PostgresError(kind: .decoding, message: "count(*) returned NULL")
        }
        return count
    }

    /// The top plan node's row estimate in `EXPLAIN (FORMAT JSON)` output.
    static func planned(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Int64 {
        guard let text = try rows.string(row, 0),
            let explained = try? JSONDecoder().decode([Explained].self, from: Data(text.utf8)),
            let estimate = explained.first?.plan.rows, estimate.isFinite, estimate >= 0, estimate < 9.2e18
        else {
            throw PostgresError(kind: .decoding, message: "EXPLAIN returned no plan row estimate")
        }
        return Int64(estimate.rounded())
    }
}
