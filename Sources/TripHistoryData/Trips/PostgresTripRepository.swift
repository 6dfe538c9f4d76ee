import Foundation
import Logging
import TripHistoryDomain

/// The trip store on PostgreSQL.
///
/// Lists are keyset reads on `(rider_id, requested_at DESC, id DESC)`, so any page costs what the first
/// costs. Lists and details are single statements, sent over the pool's pipelined connections together with
/// other callers' reads (`PostgresConnectionPool.read`); recording takes a lent connection for its
/// transaction. Every database failure (pool timeout, connection lost, statement timeout, serialization failure)
/// surfaces as `TripHistoryError.unavailable(retryAfterSeconds: 1)`; SQL and server messages are only logged.
public struct PostgresTripRepository: TripRepository {
    private let pool: PostgresConnectionPool
    private let logger: Logger

    public init(pool: PostgresConnectionPool, logger: Logger = Logger(label: "trip-history.trips")) {
        self.pool = pool
        self.logger = logger
    }

    /// Up to `fetchLimit` trips strictly beyond the position: newest first for `.older` and first pages,
    /// oldest first for `.newer`; `from` inclusive, `to` exclusive.
    public func trips(matching query: TripPageQuery) async throws -> [Trip] {
        let range = query.filter.range
        let statement = query.position?.direction == .newer ? TripStatements.newer : TripStatements.older
        let statuses: String
        switch query.filter.status {
        case nil: statuses = "{completed,canceled}"
        case .completed: statuses = "{completed}"
        case .canceled: statuses = "{canceled}"
        }
        let parameters: [String?] = [
            query.riderID.description,
            range.from.map { PostgresTimestamp.format(micros: Timestamp.micros($0)) } ?? "-infinity",
            range.to.map { PostgresTimestamp.format(micros: Timestamp.micros($0)) } ?? "infinity",
            // A first page reads below a key greater than every stored one.
            query.position.map { PostgresTimestamp.format(micros: $0.key.requestedAtMicros) } ?? "infinity",
            query.position.map { $0.key.id.description } ?? String(Int64.max),
            statuses,
            String(max(query.fetchLimit, 0)),
        ]
        return try await mapErrors("list trips") {
            try await pool.read(statement, parameters) { rows in try TripRowDecoder.trips(rows) }
        }
    }

    /// The trip with this id if it belongs to `riderID`; nil otherwise, also when another rider owns it.
    public func trip(id: TripID, riderID: RiderID) async throws -> Trip? {
        try await mapErrors("get trip") {
            try await pool.read(TripStatements.byID, [id.description, riderID.description]) { rows in
                rows.count == 0 ? nil : try TripRowDecoder.trip(rows, row: 0)
            }
        }
    }

    /// Stores the trip in one transaction and returns it once committed; the transaction also notifies
    /// `PostgresChangeListener.channel` with the rider id, so other instances drop their cached responses. With an idempotency request, takes
    /// the key's transaction lock first: a concurrent twin gets `.conflict`, a repeat of the same request gets
    /// the stored trip with `replayed`, and another body under the same key gets `.idempotencyKeyReused`.
    public func record(_ trip: NewTrip, idempotency: IdempotencyRequest?) async throws -> RecordedTrip {
        let parameters = Self.insertParameters(trip)
        let store: @Sendable (PostgresConnection) throws -> RecordedTrip = { connection in
            try connection.transaction { connection -> RecordedTrip in
                if let idempotency {
                    let keyParameters = [idempotency.scope, idempotency.key]
                    let locked = try connection.execute(TripStatements.lockKey, keyParameters)
                    guard try locked.bool(0, 0) == true else { throw TripHistoryError.conflict }
                    let found = try connection.execute(
                        TripStatements.findKey, keyParameters + [idempotency.fingerprint]
                    )
                    if found.count > 0 {
                        guard try found.bool(0, 0) == true else { throw TripHistoryError.idempotencyKeyReused }
                        return RecordedTrip(trip: try TripRowDecoder.trip(found, row: 0, offset: 1), replayed: true)
                    }
                }
                let inserted = try connection.execute(TripStatements.insert, parameters)
                guard let rawID = try inserted.int64(0, 0), let id = TripID(rawID) else {
                    throw PostgresError(kind: .decoding, message: "insert returned no id")
                }
                if let idempotency {
                    try connection.execute(
                        TripStatements.insertKey,
                        [idempotency.scope, idempotency.key, idempotency.fingerprint, id.description]
                    )
                }
                // Delivered to every listener at commit and only if the commit succeeds (PostgresChangeListener).
                try connection.execute(TripStatements.notifyChange, [trip.riderID.description])
                // NewTrip's times are already cut to microseconds, so this equals what a later read returns.
                return RecordedTrip(trip: Trip(id: id, riderID: trip.riderID, details: trip.details), replayed: false)
            }
        }
        return try await mapErrors("record trip") { try await pool.withConnection(store) }
    }

    private static func insertParameters(_ trip: NewTrip) -> [String?] {
        let d = trip.details
        func time(_ date: Date) -> String { PostgresTimestamp.format(micros: Timestamp.micros(date)) }
        return [
            trip.riderID.description, d.status.rawValue, d.product, d.city, d.timeZone,
            time(d.requestedAt), time(d.startedAt), d.completedAt.map(time),
            "\(d.pickup.latitude)", "\(d.pickup.longitude)", d.pickup.address,
            "\(d.dropoff.latitude)", "\(d.dropoff.longitude)", d.dropoff.address,
            String(d.distanceMeters), String(d.durationSeconds), String(d.fare.amountMinor), d.fare.currency.code,
        ]
    }

    /// Runs `body`, turning every database failure into the domain's errors (see the type's comment).
    private func mapErrors<T: Sendable>(_ operation: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as TripHistoryError {
            throw error
        } catch let error as PostgresError where error.isUniqueViolation {
            // Only the idempotency key is unique besides the generated id: a twin committed first.
            logger.info("idempotency key raced", metadata: ["operation": "\(operation)"])
            throw TripHistoryError.conflict
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            logger.warning("database unavailable", metadata: ["operation": "\(operation)", "error": "\(error)"])
            throw TripHistoryError.unavailable(retryAfterSeconds: 1)
        }
    }
}
