public import TripHistoryDomain

/// The audit records of riders' erasures, as an operator lists them (`trip-history erasures`).
public struct RiderErasureLog: Sendable {
    private let pool: PostgresConnectionPool

    public init(pool: PostgresConnectionPool) {
        self.pool = pool
    }

    /// Up to `limit` records, newest first: of `riderID` only, or of every rider when nil.
    public func recent(riderID: RiderID? = nil, limit: Int) async throws -> [RiderErasure] {
        try await pool.withConnection { connection in
            try connection.execute(RecentRiderErasures(riderID: riderID, limit: max(limit, 0)))
        }
    }
}
