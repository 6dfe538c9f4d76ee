import Foundation
public import Logging
public import TripHistoryDomain

/// The trip store on the sharded topology, through its PL/Proxy proxy database (docs/scaling.md): every call
/// is one function call on the proxy, which runs it on the rider's one partition (`RUN ON hashint8(rider_id)`).
///
/// Reads are the one-node repository's statements as proxy calls (`ProxyCall`), pipelined like theirs. Each
/// write is one call whose transaction is the partition's own: the trip, its receipt, the feed's entry, the
/// erasure check and the idempotency key, which lives with the rider's trips and is checked on the rider's
/// partition (a key is per caller and rider, so a key reused with another rider records a second trip, as on
/// one node). An adjustment's check is Swift code that cannot run inside the partition's call: the trip is read,
/// checked, and the call names the version checked, which the partition refuses (TH412) when the trip moved on;
/// the read and check then run again. After a write the service notifies the proxy's listeners itself, since
/// a partition's notifications reach only that partition. The errors the partitions raise carry their own
/// SQLSTATE (`TH...`, scripts/shards/partition.sql), mapped to the domain's errors here.
///
/// With `requiresStandbyCopy`, each write returns only once a second call on the rider's partition confirmed
/// that the partition still holds it and a standby has flushed it (`trip_history_await_standby_copy`), the
/// sharded counterpart of `PostgresConnection.awaitStandbyCopy()`.
///
/// With `standbyReads`, a rider's pages, counts, details and export batches are read on the shards' standbys
/// with read-your-writes (`ShardStandbyReads`): each write takes its partition's position after the commit and
/// announces it with the rider.
public struct ShardedTripRepository: TripRepository {
    private let pool: PostgresConnectionPool
    private let standbyReads: ShardStandbyReads?
    private let requiresStandbyCopy: Bool
    private let logger: Logger

    /// How many times an adjustment is read, checked and sent again when its trip changed in between.
    static let adjustmentAttempts = 5

    /// `pool` reaches the proxy database.
    public init(
        pool: PostgresConnectionPool, standbyReads: ShardStandbyReads? = nil, requiresStandbyCopy: Bool = false,
        logger: Logger = Logger(label: "trip-history.trips")
    ) {
        self.pool = pool
        self.standbyReads = standbyReads
        self.requiresStandbyCopy = requiresStandbyCopy
        self.logger = logger
    }

    public func trips(matching query: TripPageQuery) async throws -> [Trip] {
        try await mapErrors("list trips") { try await read(query.riderID, RiderTripsPage(query)) }
    }

    public func exportBatch(riderID: RiderID, after: TripKey?, limit: Int) async throws -> [Trip] {
        try await mapErrors("export trips") {
            try await read(riderID, RiderTripsExportBatch(riderID: riderID, after: after, limit: limit))
        }
    }

    /// Counted on the rider's partition up to `TripCount.exactLimit` plus one, for either mode: the partitions
    /// have no call that returns a planner's estimate, so a rider past the limit is answered with that bound.
    public func count(riderID: RiderID, filter: TripFilter, mode: TripCountMode) async throws -> TripCount {
        let statement = RiderTripsCount(riderID: riderID, filter: filter, way: .exact(limit: TripCount.exactLimit + 1))
        let counted = try await mapErrors("count trips") { try await read(riderID, statement).first } ?? 0
        return TripCount.exact(counted: counted) ?? .beyondExactLimit(estimate: counted)
    }

    public func trip(id: TripID, riderID: RiderID) async throws -> Trip? {
        try await mapErrors("get trip") { try await read(riderID, TripByID(id: id, riderID: riderID)).first }
    }

    public func record(_ trip: NewTrip, idempotency: IdempotencyRequest?) async throws -> RecordedTrip {
        try await write("record trip", riderID: trip.riderID, .record(trip, idempotency: idempotency))
    }

    /// A repeated request is answered from its key first (a call with no checked version, which the partition
    /// answers only from the key); then the trip is read and checked and the adjustment sent with the checked
    /// version, again while the trip moves on under it, up to `adjustmentAttempts` times.
    public func adjust(
        _ adjustment: NewAdjustment, tripID: TripID, riderID: RiderID, expectedVersion: Int?,
        idempotency: IdempotencyRequest?, check: @escaping @Sendable (Trip) throws -> Void
    ) async throws -> RecordedTrip {
        func call(checkedVersion: Int?) -> ProxyWriteCall {
            .adjust(
                adjustment, tripID: tripID, riderID: riderID, checkedVersion: checkedVersion,
                idempotency: idempotency)
        }
        if idempotency != nil {
            do {
                return try await write("record adjustment", riderID: riderID, call(checkedVersion: nil))
            } catch TripHistoryError.preconditionFailed {
                // The key is new: the adjustment is checked below.
            }
        }
        for attempt in 1...Self.adjustmentAttempts {
            guard let trip = try await trip(id: tripID, riderID: riderID) else { throw TripHistoryError.notFound }
            if let expectedVersion, expectedVersion != trip.lifecycle.version {
                throw TripHistoryError.preconditionFailed
            }
            try check(trip)
            do {
                return try await write(
                    "record adjustment", riderID: riderID, call(checkedVersion: trip.lifecycle.version))
            } catch TripHistoryError.preconditionFailed
                where expectedVersion == nil && attempt < Self.adjustmentAttempts
            {
                continue
            }
        }
        throw TripHistoryError.conflict
    }

    public func erase(riderID: RiderID, requestedBy: String) async throws -> RiderErasure {
        let requiresStandbyCopy = self.requiresStandbyCopy
        let timeout = pool.configuration.statementTimeout
        let erasure = try await mapErrors("erase rider") {
            try await pool.withConnection { connection -> RiderErasure in
                guard
                    let erasure = try connection.executeFirst(
                        EraseRiderCall(riderID: riderID, requestedBy: requestedBy))
                else { throw PostgresError(kind: .decoding, message: "erasure returned no record") }
                if requiresStandbyCopy {
                    try connection.execute(
                        AwaitStandbyCopyCall(riderID: riderID, tripID: nil, version: 0, timeout: timeout))
                }
                try announce(riderID, on: connection)
                return erasure
            }
        }
        logger.info(
            "rider erased",
            metadata: ["rider": "\(riderID)", "trips": "\(erasure.trips)", "adjustments": "\(erasure.adjustments)"])
        return erasure
    }

    public func changes(riderID: RiderID, after position: ChangePosition?, limit: Int) async throws -> ChangePage {
        let statement = RiderChangesPage(riderID: riderID, after: position, pageLimit: limit)
        let rows = try await mapErrors("list changes") { try await pool.read(ProxyCall(statement)) }
        return try ChangeFeedRow.page(rows, limit: limit, after: statement.after)
    }

    public func currentChangePosition(riderID: RiderID) async throws -> ChangePosition {
        let last = try await mapErrors("last change") {
            try await pool.readFirst(ProxyCall(RiderLastChange(riderID: riderID)))
        }
        return ChangePosition(sequence: last ?? 0)
    }

    /// Runs a write's call on a lent connection; then, with `requiresStandbyCopy`, the standby copy's check
    /// (for a replayed answer too: the first answer may have been lost with a commit no standby confirmed), and
    /// the notification that drops other instances' cached responses of the rider.
    private func write(_ operation: String, riderID: RiderID, _ call: ProxyWriteCall) async throws -> RecordedTrip {
        let requiresStandbyCopy = self.requiresStandbyCopy
        let timeout = pool.configuration.statementTimeout
        return try await mapErrors(operation) {
            try await pool.withConnection { connection -> RecordedTrip in
                guard let recorded = try connection.executeFirst(call) else {
                    throw PostgresError(kind: .decoding, message: "\(operation) returned no row")
                }
                if requiresStandbyCopy {
                    try connection.execute(
                        AwaitStandbyCopyCall(
                            riderID: riderID, tripID: recorded.trip.id, version: recorded.trip.lifecycle.version,
                            timeout: timeout))
                }
                // A replay is announced again with standby reads: its first answer may have been lost before
                // its notification was sent, and other instances must learn the rider's position.
                if !recorded.replayed || standbyReads != nil { try announce(riderID, on: connection) }
                return recorded
            }
        }
    }

    /// A rider's read: on the shards' standbys when `standbyReads` routes it there (the statement's `_replayed`
    /// call, retried on the primaries when refused or failing), else on the primaries.
    private func read<Statement: PostgresStatement>(
        _ riderID: RiderID, _ statement: Statement
    ) async throws -> [Statement.Row] where Statement.Row: Sendable {
        guard let standbyReads else { return try await pool.read(ProxyCall(statement)) }
        return try await standbyReads.read(riderID) { pool, position in
            try await pool.read(position.map { ProxyCall(statement, replayed: $0) } ?? ProxyCall(statement))
        }
    }

    /// After a write of `riderID` committed: with standby reads, the position of the rider's partition now,
    /// recorded for this instance's reads; then the notification that tells the other instances (the rider, with
    /// that position when it was taken) and drops their cached responses of the rider.
    private func announce(_ riderID: RiderID, on connection: PostgresConnection) throws(PostgresError) {
        guard let standbyReads else {
            try connection.execute(NotifyTripChange(riderID: riderID))
            return
        }
        let position = (try? connection.executeFirst(PartitionWritePosition(riderID: riderID))) ?? nil
        standbyReads.committed(riderID: riderID, at: position)
        try connection.execute(NotifyTripChange(riderID: riderID, detail: position?.text))
    }

    /// The domain's error for each state the partitions raise; any other failure is `unavailable`.
    private func mapErrors<T>(_ operation: String, _ body: () async throws -> T) async throws -> T {
        try await withDomainErrors(operation, logger: logger, translate: Self.translate, body)
    }

    static func translate(_ error: PostgresError) -> (any Error)? {
        switch error.sqlState {
        case "TH409": TripHistoryError.conflict
        case "TH422": TripHistoryError.idempotencyKeyReused
        case "TH410": TripHistoryError.riderErased
        case "TH404": TripHistoryError.notFound
        case "TH412": TripHistoryError.preconditionFailed
        default: error.isUniqueViolation ? TripHistoryError.conflict : nil
        }
    }
}
