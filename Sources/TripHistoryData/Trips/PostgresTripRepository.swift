import Foundation
public import Logging
public import TripHistoryDomain

/// The trip store on PostgreSQL.
///
/// Lists are keyset reads on `(rider_id, requested_at DESC, id DESC)`, so any page costs what the first
/// costs. Lists and details are single statements, sent over the pool's pipelined connections together with
/// other callers' reads (`PostgresConnectionPool.read`); recording takes a lent connection for its
/// transaction. Every database failure (pool timeout, connection lost, statement timeout, serialization failure)
/// surfaces as `TripHistoryError.unavailable(retryAfterSeconds: 1)`; SQL and server messages are only logged.
/// With `reads`, lists and details go to the target it chooses for the rider (a replica that has replayed the
/// rider's acknowledged trips, else the writer); recording always uses `pool`, the writer.
public struct PostgresTripRepository: TripRepository {
    private let pool: PostgresConnectionPool
    private let reads: PostgresReadRouting?
    private let requiresStandbyCopy: Bool
    private let logger: Logger

    /// With `requiresStandbyCopy`, `record` returns only once a streaming standby has flushed the commit
    /// (`PostgresConnection.awaitStandbyCopy()`), whatever the server's synchronous replication is set to at
    /// that moment: a failover manager may turn it off (pg_auto_failover's `wait_primary`) while the standby
    /// is being promoted, and a commit then acknowledged from the old primary alone would be lost.
    public init(
        pool: PostgresConnectionPool, reads: PostgresReadRouting? = nil, requiresStandbyCopy: Bool = false,
        logger: Logger = Logger(label: "trip-history.trips")
    ) {
        self.pool = pool
        self.reads = reads
        self.requiresStandbyCopy = requiresStandbyCopy
        self.logger = logger
    }

    private func read<T>(_ riderID: RiderID, _ body: (RoutedReads) async throws -> T) async throws -> T {
        guard let reads else { return try await body(RoutedReads(pool: pool)) }
        return try await reads.riderRead(riderID, body)
    }

    /// Up to `fetchLimit` trips strictly beyond the position: newest first for `.older` and first pages,
    /// oldest first for `.newer`; `from` inclusive, `to` exclusive.
    public func trips(matching query: TripPageQuery) async throws -> [Trip] {
        let range = query.filter.range
        // A first page reads below a key greater than every stored one.
        let statement = RiderTripsPage(
            direction: query.position?.direction == .newer ? .newer : .older, riderID: query.riderID,
            from: range.from.map(PostgresTimestampBound.init) ?? .negativeInfinity,
            to: range.to.map(PostgresTimestampBound.init) ?? .infinity,
            keyRequestedAt: query.position.map { PostgresTimestampBound.micros($0.key.requestedAtMicros) } ?? .infinity,
            keyID: query.position?.key.id.rawValue ?? Int64.max,
            statuses: TripStatements.statuses(query.filter.status), limit: max(query.fetchLimit, 0)
        )
        return try await mapErrors("list trips") { try await read(query.riderID) { try await $0.read(statement) } }
    }

    /// The trip with this id if it belongs to `riderID`; nil otherwise, also when another rider owns it.
    public func trip(id: TripID, riderID: RiderID) async throws -> Trip? {
        try await mapErrors("get trip") {
            try await read(riderID) { try await $0.readFirst(TripByID(id: id, riderID: riderID)) }
        }
    }

    /// Stores the trip in one transaction and returns it once committed; the transaction also notifies
    /// `PostgresChangeListener.channel` with the rider id, so other instances drop their cached responses.
    /// With an idempotency request, takes the key's transaction lock first: a concurrent twin gets
    /// `.conflict`, a repeat of the same request gets the stored trip with `replayed` (only once its commit is
    /// as durable as a new trip's would be), and another body under the same key gets `.idempotencyKeyReused`.
    /// A commit not confirmed in time is `unavailable` with its outcome unknown: never canceled, so the trip
    /// either becomes durable or was never stored, and a retry under the same key finds out which.
    public func record(_ trip: NewTrip, idempotency: IdempotencyRequest?) async throws -> RecordedTrip {
        let requiresStandbyCopy = self.requiresStandbyCopy
        let store: @Sendable (PostgresConnection) throws -> RecordedTrip = { connection in
            let recorded = try connection.transaction { connection -> RecordedTrip in
                if let idempotency {
                    let (scope, key) = (idempotency.scope, idempotency.key)
                    guard try connection.executeFirst(LockIdempotencyKey(scope: scope, key: key)) == true else {
                        throw TripHistoryError.conflict
                    }
                    let find = FindIdempotencyKey(scope: scope, key: key, fingerprint: idempotency.fingerprint)
                    if let found = try connection.executeFirst(find) {
                        guard found.fingerprintMatches else { throw TripHistoryError.idempotencyKeyReused }
                        // The first answer may have been lost with a commit whose standby never confirmed it:
                        // writing makes this commit wait for the standby like the first, and WAL is in order.
                        try connection.execute(TouchIdempotencyKey(scope: scope, key: key))
                        return RecordedTrip(trip: found.trip, replayed: true)
                    }
                }
                guard let id = try connection.executeFirst(InsertTrip(trip: trip)) else {
                    throw PostgresError(kind: .decoding, message: "insert returned no id")
                }
                if let idempotency {
                    try connection.execute(
                        InsertIdempotencyKey(
                            scope: idempotency.scope, key: idempotency.key, fingerprint: idempotency.fingerprint,
                            tripID: id))
                }
                // Delivered to every listener at commit and only if the commit succeeds (PostgresChangeListener).
                try connection.execute(NotifyTripChange(riderID: trip.riderID))
                // NewTrip's times are already cut to microseconds, so this equals what a later read returns.
                return RecordedTrip(trip: Trip(id: id, riderID: trip.riderID, details: trip.details), replayed: false)
            }
            if requiresStandbyCopy { try connection.awaitStandbyCopy() }
            return recorded
        }
        return try await mapErrors("record trip") { try await pool.withConnection(store) }
    }

    /// Runs `body` with the type's error mapping; a unique violation can only be the idempotency key, whose
    /// twin committed first.
    private func mapErrors<T>(_ operation: String, _ body: () async throws -> T) async throws -> T {
        let logger = self.logger
        let translate: (PostgresError) -> (any Error)? = { error in
            guard error.isUniqueViolation else { return nil }
            logger.info("idempotency key raced", metadata: ["operation": "\(operation)"])
            return TripHistoryError.conflict
        }
        return try await withDomainErrors(operation, logger: logger, translate: translate, body)
    }
}
