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
    private let readerReplayTimeout: Duration
    private let notifies: Bool
    private let logger: Logger

    /// With `requiresStandbyCopy`, `record` returns only once a streaming standby has flushed the commit
    /// (`PostgresConnection.awaitStandbyCopy()`), whatever the server's synchronous replication is set to at
    /// that moment: a failover manager may turn it off (pg_auto_failover's `wait_primary`) while the standby
    /// is being promoted, and a commit then acknowledged from the old primary alone would be lost.
    /// An erasure waits up to `readerReplayTimeout` for the reader to replay it. Without `notifies`, writes send
    /// no notification: for a caller that announces them where the instances listen (a partition of the sharded
    /// topology, whose listeners are on the proxy), as a notification takes a lock every notifying commit of the
    /// server queues on.
    public init(
        pool: PostgresConnectionPool, reads: PostgresReadRouting? = nil, requiresStandbyCopy: Bool = false,
        readerReplayTimeout: Duration = .seconds(5), notifies: Bool = true,
        logger: Logger = Logger(label: "trip-history.trips")
    ) {
        self.pool = pool
        self.reads = reads
        self.requiresStandbyCopy = requiresStandbyCopy
        self.readerReplayTimeout = readerReplayTimeout
        self.notifies = notifies
        self.logger = logger
    }

    private func read<T>(_ riderID: RiderID, _ body: (RoutedReads) async throws -> T) async throws -> T {
        guard let reads else { return try await body(RoutedReads(pool: pool)) }
        return try await reads.riderRead(riderID, body)
    }

    /// Up to `fetchLimit` trips strictly beyond the position: newest first for `.older` and first pages,
    /// oldest first for `.newer`; `from` inclusive, `to` exclusive.
    public func trips(matching query: TripPageQuery) async throws -> [Trip] {
        let statement = RiderTripsPage(query)
        return try await mapErrors("list trips") { try await read(query.riderID) { try await $0.read(statement) } }
    }

    /// A batch of the rider's export: trips older than `after`, newest first, with receipts and ledgers. Read
    /// like the rider's pages (replicas, read-your-writes).
    public func exportBatch(riderID: RiderID, after: TripKey?, limit: Int) async throws -> [Trip] {
        let statement = RiderTripsExportBatch(riderID: riderID, after: after, limit: limit)
        return try await mapErrors("export trips") { try await read(riderID) { try await $0.read(statement) } }
    }

    /// How many of the rider's trips match: counted up to `TripCount.exactLimit` plus one for `.exact`, the
    /// planner's estimate for `.planned` and past that limit. Read like the rider's pages (replicas, read-your-writes).
    public func count(riderID: RiderID, filter: TripFilter, mode: TripCountMode) async throws -> TripCount {
        try await mapErrors("count trips") {
            try await read(riderID) { reads in
                let estimate = { () async throws -> Int64 in
                    try await reads.readFirst(RiderTripsCount(riderID: riderID, filter: filter, way: .estimate)) ?? 0
                }
                switch mode {
                case .planned:
                    return TripCount(value: try await estimate(), accuracy: .planned)
                case .exact:
                    let counted = try await reads.readFirst(
                        RiderTripsCount(riderID: riderID, filter: filter, way: .exact(limit: TripCount.exactLimit + 1)))
                    if let exact = TripCount.exact(counted: counted ?? 0) { return exact }
                    return .beyondExactLimit(estimate: try await estimate())
                }
            }
        }
    }

    /// The trip with this id if it belongs to `riderID`; nil otherwise, also when another rider owns it.
    public func trip(id: TripID, riderID: RiderID) async throws -> Trip? {
        try await mapErrors("get trip") {
            try await read(riderID) { try await $0.readFirst(TripByID(id: id, riderID: riderID)) }
        }
    }

    /// Stores the trip in one transaction (`write`) and returns it once committed; the transaction also
    /// writes the feed's entry and (with `notifies`) notifies `PostgresChangeListener.channel` with the rider id,
    /// so other instances drop their cached responses. A trip requested before an erasure of its rider is refused
    /// (`.riderErased`), also when the erasure commits while this transaction runs. A commit not confirmed in
    /// time is `unavailable` with its outcome unknown: never canceled, so the trip either becomes durable or was
    /// never stored, and a retry under the same key finds out which.
    public func record(_ trip: NewTrip, idempotency: IdempotencyRequest?) async throws -> RecordedTrip {
        try await write(
            "record trip", riderID: trip.riderID, idempotency: idempotency, requestedAt: trip.details.requestedAt
        ) { connection in
            guard let inserted = try connection.executeFirst(InsertTrip(trip: trip)) else {
                throw PostgresError(kind: .decoding, message: "insert returned no id")
            }
            if !trip.receipt.isEmpty {
                try connection.execute(InsertTripReceipt(tripID: inserted.id, receipt: trip.receipt))
            }
            // The feed's entry takes the rider's counter lock; only then can the check see every erasure.
            try connection.execute(InsertTripChange(riderID: trip.riderID, tripID: inserted.id, change: .upsert))
            let check = RiderErasedAfter(riderID: trip.riderID, requestedAt: trip.details.requestedAt)
            let erased =
                notifies
                ? try connection.executeFirst(AnnounceRecordedTrip(check: check)) : try connection.executeFirst(check)
            if erased != false { throw TripHistoryError.riderErased }
            // NewTrip's times are already cut to microseconds, so this equals what a later read returns.
            return Trip(
                id: inserted.id, riderID: trip.riderID, details: trip.details,
                lifecycle: .recorded(at: inserted.recordedAt), receipt: trip.receipt, adjustments: [])
        }
    }

    /// Appends the adjustment in one transaction with the trip locked: `check` sees the trip as it stands,
    /// the ledger gains a row, the trip its new totals and version, the feed an upsert, and other instances a
    /// notification, all at commit. Idempotency and the commit's durability work exactly as in `record`.
    public func adjust(
        _ adjustment: NewAdjustment, tripID: TripID, riderID: RiderID, expectedVersion: Int?,
        idempotency: IdempotencyRequest?, check: @escaping @Sendable (Trip) throws -> Void
    ) async throws -> RecordedTrip {
        try await write("record adjustment", riderID: riderID, idempotency: idempotency) { connection in
            guard let trip = try connection.executeFirst(LockTrip(id: tripID, riderID: riderID)) else {
                throw TripHistoryError.notFound
            }
            if let expectedVersion, expectedVersion != trip.lifecycle.version {
                throw TripHistoryError.preconditionFailed
            }
            try check(trip)
            guard try connection.executeFirst(InsertAdjustment(tripID: tripID, adjustment: adjustment)) != nil
            else {
                throw PostgresError(kind: .decoding, message: "adjustment insert returned no row")
            }
            try announce(.upsert, tripID: tripID, riderID: riderID, on: connection)
            guard let adjusted = try connection.executeFirst(TripByID(id: tripID, riderID: riderID)) else {
                throw TripHistoryError.notFound
            }
            return adjusted
        }
    }

    /// Runs `body`, which writes a trip or an adjustment and returns the trip as it then stands, in one
    /// transaction on a lent connection, and returns once the commit is as durable as the server (and
    /// `requiresStandbyCopy`) promise. With an idempotency request it first takes the key's transaction lock:
    /// a concurrent twin gets `.conflict`; a key used before by another body gets `.idempotencyKeyReused`; a
    /// repeat of the same request writes nothing but the key's row again, so that its commit, too, waits for
    /// the standby before the trip is returned with `replayed` (the first answer may have been lost with a
    /// commit the standby never confirmed). Otherwise `body` runs and the key is stored with its trip. A write
    /// of a trip requested in a year the table has no partition for creates the partition and runs again: the
    /// first transaction rolled back whole, so nothing of it was acknowledged.
    private func write(
        _ operation: String, riderID: RiderID, idempotency: IdempotencyRequest?, requestedAt: Date? = nil,
        _ body: @escaping @Sendable (PostgresConnection) throws -> Trip
    ) async throws -> RecordedTrip {
        let requiresStandbyCopy = self.requiresStandbyCopy
        let store: @Sendable (PostgresConnection) throws -> RecordedTrip = { connection in
            let recorded = try connection.transaction { connection -> RecordedTrip in
                if let idempotency {
                    let (scope, key) = (idempotency.scope, idempotency.key)
                    guard try connection.executeFirst(LockIdempotencyKey(scope: scope, key: key)) == true else {
                        throw TripHistoryError.conflict
                    }
                    let find = FindIdempotentTrip(scope: scope, key: key, fingerprint: idempotency.fingerprint)
                    if let found = try connection.executeFirst(find) {
                        guard found.fingerprintMatches else { throw TripHistoryError.idempotencyKeyReused }
                        try connection.execute(TouchIdempotencyKey(scope: scope, key: key))
                        guard let trip = try connection.executeFirst(TripByID(id: found.tripID, riderID: riderID))
                        else { throw TripHistoryError.notFound }
                        return RecordedTrip(trip: trip, replayed: true)
                    }
                }
                let trip = try body(connection)
                if let idempotency {
                    try connection.execute(
                        InsertIdempotencyKey(
                            scope: idempotency.scope, key: idempotency.key, fingerprint: idempotency.fingerprint,
                            tripID: trip.id))
                }
                return RecordedTrip(trip: trip, replayed: false)
            }
            if requiresStandbyCopy { try connection.awaitStandbyCopy() }
            return recorded
        }
        let storeInItsPartition: @Sendable (PostgresConnection) throws -> RecordedTrip = { connection in
            do {
                return try store(connection)
            } catch let error as PostgresError where error.isMissingPartition {
                guard let requestedAt else { throw error }
                try connection.execute(EnsureTripPartition(at: requestedAt))
                return try store(connection)
            }
        }
        return try await mapErrors(operation) { try await pool.withConnection(storeInItsPartition) }
    }

    /// Erases the rider in one transaction: the rider's trips locked (in the order adjustments lock them), then
    /// the rider's change counter (which every write of the rider takes), then the trips deleted with their
    /// receipts, ledgers and idempotency keys, those of years the retention has detached and not yet dropped
    /// included, an `erased` feed entry per trip, the audit record and the
    /// notification that drops every instance's cached responses of the rider. Returns once the commit is as
    /// durable as a recorded trip's and, with a reader, once the reader has replayed it (so no analyst read
    /// there returns the rider's trips); a reader that stays behind past `readerReplayTimeout` makes it
    /// `unavailable`, and a retry finds nothing left to erase and waits again.
    public func erase(riderID: RiderID, requestedBy: String) async throws -> RiderErasure {
        let requiresStandbyCopy = self.requiresStandbyCopy
        let (erasure, position) = try await mapErrors("erase rider") {
            try await pool.withConnection { connection -> (RiderErasure, WALPosition) in
                let erasure = try connection.transaction { connection -> RiderErasure in
                    try connection.execute(LockRiderTrips(riderID: riderID))
                    try connection.execute(LockRiderChangeCounter(riderID: riderID))
                    try connection.execute(RetirementLock.Shared())
                    var earlier = ErasedCounts()
                    for year in try connection.execute(DetachedTripYears()) {
                        let erased = try connection.executeFirst(EraseRiderRetiredTrips(year: year, riderID: riderID))
                        earlier.trips += erased?.trips ?? 0
                        earlier.adjustments += erased?.adjustments ?? 0
                    }
                    guard
                        let erasure = try connection.executeFirst(
                            EraseRiderTrips(riderID: riderID, requestedBy: requestedBy, earlier: earlier))
                    else { throw PostgresError(kind: .decoding, message: "erasure returned no record") }
                    if notifies { try connection.execute(NotifyTripChange(riderID: riderID)) }
                    return erasure
                }
                // Where the reader must have replayed to: the position the standby copy waited for, if any.
                let position =
                    requiresStandbyCopy ? try connection.awaitStandbyCopy() : try connection.walInsertPosition()
                return (erasure, position)
            }
        }
        if let reads, !(await reads.awaitReaderReplay(of: position, timeout: readerReplayTimeout)) {
            logger.warning("erasure committed; the reader has not replayed it yet", metadata: ["rider": "\(riderID)"])
            throw TripHistoryError.unavailable(retryAfterSeconds: 1)
        }
        logger.info(
            "rider erased",
            metadata: ["rider": "\(riderID)", "trips": "\(erasure.trips)", "adjustments": "\(erasure.adjustments)"])
        return erasure
    }

    /// The rider's changes after `position`, in the order of their numbers, which is the order they became
    /// visible in. A trip changed twice within the page appears once, at its last change.
    public func changes(riderID: RiderID, after position: ChangePosition?, limit: Int) async throws -> ChangePage {
        let statement = RiderChangesPage(riderID: riderID, after: position, pageLimit: limit)
        let rows = try await mapErrors("list changes") { try await read(riderID) { try await $0.read(statement) } }
        return try ChangeFeedRow.page(rows, limit: limit, after: statement.after)
    }

    /// The rider's last change: reading after it returns only later ones.
    public func currentChangePosition(riderID: RiderID) async throws -> ChangePosition {
        let last = try await mapErrors("last change") {
            try await read(riderID) { try await $0.readFirst(RiderLastChange(riderID: riderID)) }
        }
        return ChangePosition(sequence: last ?? 0)
    }

    /// Writes the feed's entry and, when `notifies`, the notification that drops other instances' cached responses
    /// of the rider, both delivered at commit and only if it succeeds (PostgresChangeListener).
    private func announce(
        _ change: InsertTripChange.Change, tripID: TripID, riderID: RiderID, on connection: PostgresConnection
    ) throws {
        try connection.execute(InsertTripChange(riderID: riderID, tripID: tripID, change: change))
        if notifies { try connection.execute(NotifyTripChange(riderID: riderID)) }
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
