import Foundation
public import Logging
public import TripHistoryDomain

/// The trip store on the sharded topology (docs/scaling.md): every rider's call runs on the rider's one
/// partition, reached directly through its pools (`PartitionRoutes`) at the connection string the proxy's
/// cluster names, so it is prepared and pipelined as on one node. The proxy database stays the map, the
/// listener's channel and the analysts' fan-out.
///
/// Reads are the one-node repository's statements, run on the partition as they are on one node. Each write
/// is one call of a partition function whose transaction is the partition's own (`ProxyWriteCall`): the trip,
/// its receipt, the feed's entry, the erasure check and the idempotency key, which lives with the rider's trips
/// and is checked on the rider's partition (a key is per caller and rider, so a key reused with another rider
/// records a second trip, as on one node). An adjustment's check is Swift code that cannot run inside the
/// partition's call: the trip is read, checked, and the call names the version checked, which the partition
/// refuses (TH412) when the trip moved on; the read and check then run again. After a write the service
/// notifies the proxy's listeners, since a partition's notifications reach only that partition. The errors
/// the partitions raise carry their own SQLSTATE (`TH...`, partition.sql), mapped to the domain's errors here.
///
/// With `requiresStandbyCopy`, each write returns only once a second call on the rider's partition confirmed
/// that the partition still holds it and a standby has flushed it (`trip_history_await_standby_copy`), the
/// sharded counterpart of `PostgresConnection.awaitStandbyCopy()`.
///
/// With `standbyReads`, a rider's pages, counts, details and export batches are read on the partition's
/// standby with read-your-writes (`ShardStandbyReads`): each write takes its partition's position after the
/// commit and announces it with the rider.
public struct ShardedTripRepository: TripRepository {
    private let proxy: PostgresConnectionPool
    private let routes: PartitionRoutes
    private let standbyReads: ShardStandbyReads?
    private let requiresStandbyCopy: Bool
    private let logger: Logger

    /// How many times an adjustment is read, checked and sent again when its trip changed in between.
    static let adjustmentAttempts = 5

    /// `proxy` reaches the proxy database, whose listeners each write notifies; `routes`, the partitions.
    public init(
        proxy: PostgresConnectionPool, routes: PartitionRoutes, standbyReads: ShardStandbyReads? = nil,
        requiresStandbyCopy: Bool = false, logger: Logger = Logger(label: "trip-history.trips")
    ) {
        self.proxy = proxy
        self.routes = routes
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

    /// Counted on the rider's partition up to `TripCount.exactLimit` plus one, for either mode: a partition
    /// holds a small share of the table the planner's estimate would describe, so a rider past the limit is
    /// answered with that bound.
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
        let erasure = try await mapErrors("erase rider") {
            try await committed(riderID: riderID) { connection, timeout in
                guard
                    let erasure = try connection.executeFirst(
                        EraseRiderCall(riderID: riderID, requestedBy: requestedBy))
                else { throw PostgresError(kind: .decoding, message: "erasure returned no record") }
                let copy = AwaitStandbyCopyCall(riderID: riderID, tripID: nil, version: 0, timeout: timeout)
                return (erasure, copy, replayed: false)
            }
        }
        logger.info(
            "rider erased",
            metadata: ["rider": "\(riderID)", "trips": "\(erasure.trips)", "adjustments": "\(erasure.adjustments)"])
        return erasure
    }

    public func changes(riderID: RiderID, after position: ChangePosition?, limit: Int) async throws -> ChangePage {
        let statement = RiderChangesPage(riderID: riderID, after: position, pageLimit: limit)
        let rows = try await mapErrors("list changes") {
            try await routes.onWriter(riderID) { try await $0.read(statement) }
        }
        return try ChangeFeedRow.page(rows, limit: limit, after: statement.after)
    }

    public func currentChangePosition(riderID: RiderID) async throws -> ChangePosition {
        let last = try await mapErrors("last change") {
            try await routes.onWriter(riderID) { try await $0.readFirst(RiderLastChange(riderID: riderID)) }
        }
        return ChangePosition(sequence: last ?? 0)
    }

    /// A write's call on the rider's partition.
    private func write(_ operation: String, riderID: RiderID, _ call: ProxyWriteCall) async throws -> RecordedTrip {
        try await mapErrors(operation) {
            try await committed(riderID: riderID) { connection, timeout in
                guard let recorded = try connection.executeFirst(call) else {
                    throw PostgresError(kind: .decoding, message: "\(operation) returned no row")
                }
                let copy = AwaitStandbyCopyCall(
                    riderID: riderID, tripID: recorded.trip.id, version: recorded.trip.lifecycle.version,
                    timeout: timeout)
                return (recorded, copy, replayed: recorded.replayed)
            }
        }
    }

    /// Runs a write (`body`, on a lent connection of the rider's partition, answering its result, the check of
    /// its standby copy and whether its idempotency key had recorded it already); then, with
    /// `requiresStandbyCopy`, that check (for a replayed answer too: the first answer may have been lost with a
    /// commit no standby confirmed), and the announcement that drops other instances' cached responses of the
    /// rider. A write that cannot have committed on a moved partition's old copy runs again on the new one.
    private func committed<T: Sendable>(
        riderID: RiderID,
        _ body: @escaping @Sendable (PostgresConnection, Duration) throws -> (T, AwaitStandbyCopyCall, replayed: Bool)
    ) async throws -> T {
        let requiresStandbyCopy = self.requiresStandbyCopy
        let tracksPositions = standbyReads != nil
        let (result, replayed, position) = try await routes.onWriter(
            riderID, mayRetry: PartitionRoutes.mayRetryWrite
        ) { pool in
            let timeout = pool.configuration.statementTimeout
            return try await pool.withConnection { connection -> (T, Bool, PartitionPosition?) in
                let (result, copy, replayed) = try body(connection, timeout)
                if requiresStandbyCopy { try connection.execute(copy) }
                guard tracksPositions else { return (result, replayed, nil) }
                return (
                    result, replayed, (try? connection.executeFirst(PartitionWritePosition(riderID: riderID))) ?? nil
                )
            }
        }
        // A replay is announced again with standby reads: its first answer may have been lost before its
        // notification was sent, and other instances must learn the rider's position.
        if !replayed || tracksPositions { try await announce(riderID, at: position) }
        return result
    }

    /// A rider's read on the rider's partition: on its standby when `standbyReads` routes it there (the
    /// statement's `_replayed` call, retried on the primary when refused or failing), else on its primary.
    private func read<Statement: PostgresStatement>(
        _ riderID: RiderID, _ statement: Statement
    ) async throws -> [Statement.Row] where Statement.Row: Sendable {
        guard let standbyReads else { return try await routes.onWriter(riderID) { try await $0.read(statement) } }
        return try await standbyReads.read(riderID) { position in
            guard let position, let reader = routes.reader(of: riderID) else {
                return try await routes.onWriter(riderID) { try await $0.read(statement) }
            }
            return try await reader.read(ProxyCall(statement, replayed: position))
        }
    }

    /// After a write of `riderID` committed (its partition at `position` then, when standby reads took it):
    /// records the position for this instance's reads, then notifies the proxy's listeners, which tells the other
    /// instances (the rider, with the position when one was taken) and drops their cached responses of the rider.
    private func announce(_ riderID: RiderID, at position: PartitionPosition?) async throws {
        standbyReads?.committed(riderID: riderID, at: position)
        let notification = NotifyTripChange(riderID: riderID, detail: standbyReads == nil ? nil : position?.text)
        _ = try await proxy.withConnection { try $0.execute(notification) }
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
