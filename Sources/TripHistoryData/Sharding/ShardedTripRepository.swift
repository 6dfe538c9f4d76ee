import Foundation
public import Logging
public import TripHistoryDomain

/// The trip store on the sharded topology (docs/scaling.md): every rider's call runs on the rider's one
/// partition, reached directly through its pools (`PartitionRoutes`) at the connection string the proxy's
/// cluster names. A partition holds one node's schema, so it is served as one node is: reads are the one-node
/// statements, prepared and pipelined there, and writes are a one-node `PostgresTripRepository`'s on the
/// partition's pool (the trip, its receipt, the feed's entry, the erasure check and the idempotency key in one
/// transaction; an adjustment checked with its trip locked). Idempotency keys therefore live with the rider's
/// trips and are checked on the rider's partition: a key is per caller and rider, so a key reused with another
/// rider records a second trip, as on one node. The proxy database stays the map, the listeners' channel and
/// the analysts' fan-out: after each write the service notifies the proxy's listeners, since a partition's
/// notifications reach only that partition.
///
/// With `requiresStandbyCopy`, each write returns only once a standby of the partition's server has flushed it,
/// as on one node. With `standbyReads`, a rider's pages, counts, details and export batches are read on the
/// partition's standby with read-your-writes (`ShardStandbyReads`): each write takes its partition's position
/// after the commit and announces it with the rider.
public struct ShardedTripRepository: TripRepository {
    private let proxy: PostgresConnectionPool
    private let routes: PartitionRoutes
    /// Each partition's writes, in partition order.
    private let partitionWrites: [PostgresTripRepository]
    private let standbyReads: ShardStandbyReads?
    private let logger: Logger

    /// `proxy` reaches the proxy database, whose listeners each write notifies; `routes`, the partitions.
    public init(
        proxy: PostgresConnectionPool, routes: PartitionRoutes, standbyReads: ShardStandbyReads? = nil,
        requiresStandbyCopy: Bool = false, logger: Logger = Logger(label: "trip-history.trips")
    ) {
        self.proxy = proxy
        self.routes = routes
        partitionWrites = routes.partitions.map { partition in
            PostgresTripRepository(
                pool: partition.writer, requiresStandbyCopy: requiresStandbyCopy, notifies: false, logger: logger)
        }
        self.standbyReads = standbyReads
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
        let recorded = try await write(trip.riderID, replays: idempotency != nil) {
            try await $0.record(trip, idempotency: idempotency)
        }
        try await announce(trip.riderID, replayed: recorded.replayed)
        return recorded
    }

    public func adjust(
        _ adjustment: NewAdjustment, tripID: TripID, riderID: RiderID, expectedVersion: Int?,
        idempotency: IdempotencyRequest?, check: @escaping @Sendable (Trip) throws -> Void
    ) async throws -> RecordedTrip {
        let recorded = try await write(riderID, replays: idempotency != nil) {
            try await $0.adjust(
                adjustment, tripID: tripID, riderID: riderID, expectedVersion: expectedVersion,
                idempotency: idempotency, check: check)
        }
        try await announce(riderID, replayed: recorded.replayed)
        return recorded
    }

    /// Erased on the rider's partition as on one node; an erasure run again finds nothing left to erase.
    public func erase(riderID: RiderID, requestedBy: String) async throws -> RiderErasure {
        let erasure = try await write(riderID, replays: true) {
            try await $0.erase(riderID: riderID, requestedBy: requestedBy)
        }
        try await announce(riderID, replayed: false)
        return erasure
    }

    public func changes(riderID: RiderID, after position: ChangePosition?, limit: Int) async throws -> ChangePage {
        let statement = RiderChangesPage(riderID: riderID, after: position, pageLimit: limit)
        let rows = try await mapErrors("list changes") {
            try await routes.readOnPrimary(riderID) { try await $0.read(statement) }
        }
        return try ChangeFeedRow.page(rows, limit: limit, after: statement.after)
    }

    public func currentChangePosition(riderID: RiderID) async throws -> ChangePosition {
        let last = try await mapErrors("last change") {
            try await routes.readOnPrimary(riderID) { try await $0.readFirst(RiderLastChange(riderID: riderID)) }
        }
        return ChangePosition(sequence: last ?? 0)
    }

    /// Runs a write on the rider's partition. A write that failed (`unavailable`) while the partition moved makes
    /// the map be read again; it runs again on the new copy when it `replays` (its idempotency key, or an
    /// erasure, makes a second run answer what the first committed, if it did).
    private func write<T>(
        _ riderID: RiderID, replays: Bool, _ body: (PostgresTripRepository) async throws -> T
    ) async throws -> T {
        let partition = partitionWrites[routes.number(of: riderID)]
        let generation = routes.generation
        do {
            return try await body(partition)
        } catch TripHistoryError.unavailable(let retryAfterSeconds) {
            guard await routes.mapChanged(since: generation), replays else {
                throw TripHistoryError.unavailable(retryAfterSeconds: retryAfterSeconds)
            }
            return try await body(partition)
        }
    }

    /// After a write of `riderID` committed: with standby reads, the position of the rider's partition now,
    /// recorded for this instance's reads; then the notification on the proxy, which tells the other instances
    /// (the rider, with that position when it was taken) and drops their cached responses of the rider. A replay
    /// is announced again only with standby reads: its first answer may have been lost before its notification
    /// was sent, and other instances must learn the rider's position.
    private func announce(_ riderID: RiderID, replayed: Bool) async throws {
        var detail: String?
        if let standbyReads {
            let position =
                (try? await routes.readOnPrimary(riderID) {
                    try await $0.readFirst(PartitionWritePosition(riderID: riderID))
                })
                ?? nil
            standbyReads.committed(riderID: riderID, at: position)
            detail = position?.text
        } else if replayed {
            return
        }
        let notification = NotifyTripChange(riderID: riderID, detail: detail)
        try await mapErrors("announce a change") { _ = try await proxy.withConnection { try $0.execute(notification) } }
    }

    /// A rider's read on the rider's partition: on its standby when `standbyReads` routes it there (the
    /// statement's `_replayed` call, retried on the primary when refused or failing), else on its primary.
    private func read<Statement: PostgresStatement>(
        _ riderID: RiderID, _ statement: Statement
    ) async throws -> [Statement.Row] where Statement.Row: Sendable {
        guard let standbyReads else { return try await routes.readOnPrimary(riderID) { try await $0.read(statement) } }
        return try await standbyReads.read(riderID) { position in
            guard let position, let reader = routes.reader(of: riderID) else {
                return try await routes.readOnPrimary(riderID) { try await $0.read(statement) }
            }
            return try await reader.read(ProxyCall(statement, replayed: position))
        }
    }

    private func mapErrors<T>(_ operation: String, _ body: () async throws -> T) async throws -> T {
        try await withDomainErrors(operation, logger: logger, body)
    }
}
