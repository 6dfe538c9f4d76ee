import Foundation
import TripHistoryDomain

/// Locks every trip of the rider, in the order an adjustment locks its trip before the rider's counter, so an
/// erasure and an adjustment of the same rider queue on the trip instead of deadlocking; in id order, the order
/// the online partitioning's copy share-locks trips in, so the two never wait for each other in a cycle.
struct LockRiderTrips: PostgresPreparedStatement {
    typealias Row = Void
    static let name = "erasure_lock_trips_v2"
    static let sql = "SELECT 1 FROM trips WHERE rider_id = $1 ORDER BY id FOR UPDATE"

    let riderID: RiderID

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(riderID)
        return bindings
    }
}

/// Locks the rider's change counter, creating it when the rider has none, until the transaction ends. Every
/// write of the rider takes the same row (`InsertTripChange`), so a write either committed before this lock
/// was granted (and the erasure's next statement sees its trip) or waits for the erasure to commit (and then
/// finds it: `AnnounceRecordedTrip`). A new counter starts at 1 with no entry: a gap readers skip.
struct LockRiderChangeCounter: PostgresPreparedStatement {
    typealias Row = Void
    static let name = "erasure_lock_counter_v1"
    static let sql = """
        INSERT INTO rider_change_counters AS c (rider_id, last_seq) VALUES ($1, 1)
        ON CONFLICT (rider_id) DO UPDATE SET last_seq = c.last_seq
        """

    let riderID: RiderID

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(riderID)
        return bindings
    }
}

/// Deletes the rider's trips with their receipts, ledgers and idempotency keys, appends an `erased` entry per
/// trip to the rider's feed, and writes the audit record, counting `earlier` too (what `EraseRiderRetiredTrips`
/// erased in the same transaction), in one statement; returns the record. Run with the rider's trips and
/// counter locked.
struct EraseRiderTrips: PostgresPreparedStatement {
    static let name = "erasure_delete_v3"
    static let sql = """
        WITH gone AS (
            DELETE FROM trips WHERE rider_id = $1 RETURNING id
        ), \(erasedEntries(of: "gone")), ledger AS (
            SELECT count(*) AS entries FROM ledger_rows
        )
        INSERT INTO rider_erasures (rider_id, trips, adjustments, requested_by)
        SELECT $1, counted.trips + $3::bigint, ledger.entries + $4::bigint, $2 FROM counted, ledger
        RETURNING (extract(epoch FROM erased_at) * 1000000)::bigint, trips::bigint, adjustments::bigint
        """
    static let resultFormat = PreparedStatement.ResultFormat.binary

    let riderID: RiderID
    let requestedBy: String
    let earlier: ErasedCounts

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(riderID)
        bindings.append(requestedBy)
        bindings.append(earlier.trips)
        bindings.append(earlier.adjustments)
        return bindings
    }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> RiderErasure {
        try RiderErasureRow.decode(rows, row: row, riderID: riderID, requestedBy: requestedBy)
    }
}

/// The CTEs that erase the trips `trips` (a CTE of rider `$1`'s trip ids) from the rider's feed's point of view:
/// their receipts, ledgers and idempotency keys deleted (`ledger_rows` has a row per ledger entry), `counted`
/// their number, and an `erased` entry each, numbered next in the rider's sequence (whose counter the caller
/// holds locked).
func erasedEntries(of trips: String) -> String {
    """
    \(TripStatements.partsDeletion(of: trips)), counted AS (
        SELECT count(*) AS trips FROM \(trips)
    ), counter AS (
        UPDATE rider_change_counters SET last_seq = last_seq + (SELECT trips FROM counted)
        WHERE rider_id = $1 RETURNING last_seq - (SELECT trips FROM counted) AS before
    ), feed AS (
        INSERT INTO trip_changes (rider_id, seq, trip_id, change)
        SELECT $1, counter.before + row_number() OVER (ORDER BY \(trips).id), \(trips).id, 'erased'
        FROM \(trips), counter
    )
    """
}

/// Trips and ledger entries an erasure removed.
struct ErasedCounts: Sendable, Equatable {
    var trips: Int64 = 0
    var adjustments: Int64 = 0
}

/// The years of trips retention has detached, or is detaching, and not yet dropped: an erasure reaches their
/// tables too, so an erased rider's trips do not wait there for the retention to finish. Run under
/// `RetirementLock.shared`, which keeps the retention from dropping a table or reporting a batch meanwhile.
struct DetachedTripYears: PostgresPreparedStatement {
    static let name = "erasure_detached_years_v1"
    static let sql = """
        SELECT substr(c.relname, 8)::bigint FROM pg_class c
        WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
            AND c.relkind = 'r' AND c.relname ~ '^trips_y-?[0-9]+$'
            AND (NOT c.relispartition
                OR EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = c.oid AND i.inhdetachpending))
        ORDER BY 1
        """

    func makeBindings() -> PostgresBindings { PostgresBindings() }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Int {
        guard let year = try rows.int64(row, 0) else {
            throw PostgresError(kind: .decoding, message: "a detached trips table without a year")
        }
        return Int(year)
    }
}

/// Erases the rider's trips from a detached year's table: every row goes, and those the retention has not
/// reported yet (after the year's `reported_through`) also lose their receipts, ledgers and idempotency keys
/// and get an `erased` entry in the rider's feed, as `EraseRiderTrips` does; the retention reported the others
/// already. Returns what it erased. The table's name depends on the year, so each year's statement is its own.
struct EraseRiderRetiredTrips: PostgresStatement {
    let year: Int
    let riderID: RiderID

    var prepared: PreparedStatement {
        PreparedStatement(
            name: "erasure_retired_y\(year)_v1",
            sql: """
                WITH removed AS (
                    DELETE FROM \(ExpiredTripPartitions.table(year)) WHERE rider_id = $1 RETURNING id
                ), gone AS (
                    SELECT id FROM removed
                    WHERE id > (SELECT coalesce(max(reported_through), 0) FROM trip_retirements WHERE year = \(year))
                ), \(erasedEntries(of: "gone"))
                SELECT counted.trips, (SELECT count(*) FROM ledger_rows) FROM counted
                """,
            resultFormat: .text)
    }

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(riderID)
        return bindings
    }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> ErasedCounts {
        guard let trips = try rows.int64(row, 0), let adjustments = try rows.int64(row, 1) else {
            throw PostgresError(kind: .decoding, message: "a detached year's erasure without counts")
        }
        return ErasedCounts(trips: trips, adjustments: adjustments)
    }
}

/// The lock that keeps erasures and the retention's work on detached years apart: an erasure holds it shared
/// while it lists and erases detached years, a batch of the retention's report and the drop of a year hold it
/// alone, so an erasure never meets a table being dropped nor a batch locking the same rows in another order.
/// Held to the end of the transaction.
struct RetirementLock: PostgresPreparedStatement {
    typealias Row = Void
    static let name: String = "trips_retirement_lock_v1"
    static let sql = "SELECT pg_advisory_xact_lock(hashtext('trips_retirement'), 0)"

    func makeBindings() -> PostgresBindings { PostgresBindings() }

    /// The same lock, shared.
    struct Shared: PostgresPreparedStatement {
        typealias Row = Void
        static let name: String = "trips_retirement_lock_shared_v1"
        static let sql = "SELECT pg_advisory_xact_lock_shared(hashtext('trips_retirement'), 0)"

        func makeBindings() -> PostgresBindings { PostgresBindings() }
    }
}

/// Announces a recorded trip on the change channel, as `NotifyTripChange` does, and answers `check`: whether
/// the rider was erased after the trip was requested. Run after `InsertTripChange`, whose counter lock orders it
/// after any erasure of the rider, so this statement sees every such erasure that committed.
struct AnnounceRecordedTrip: PostgresPreparedStatement {
    static let name = "trips_announce_recorded_v1"
    static let sql = """
        SELECT pg_notify('\(PostgresChangeListener.channel)', $1),
            \(RiderErasedAfter.exists("$2", "$3"))
        """
    static let resultFormat = PreparedStatement.ResultFormat.binary

    let check: RiderErasedAfter

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(check.riderID)
        bindings.append(check.riderID)
        bindings.append(check.requestedAt)
        return bindings
    }

    /// True when the rider was erased after the trip was requested.
    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Bool {
        try rows.bool(row, 1) == true
    }
}

/// Whether the rider was erased after the trip was requested: `AnnounceRecordedTrip` without its notification,
/// for a repository whose caller announces the change elsewhere (the sharded topology's proxy).
struct RiderErasedAfter: PostgresPreparedStatement {
    static let name = "trips_rider_erased_after_v1"
    static let sql = "SELECT \(exists("$1", "$2"))"
    static let resultFormat = PreparedStatement.ResultFormat.binary

    let riderID: RiderID
    let requestedAt: Date

    /// The test, given the placeholders of the rider id and the trip's request time.
    static func exists(_ rider: String, _ requestedAt: String) -> String {
        "EXISTS (SELECT 1 FROM rider_erasures WHERE rider_id = \(rider)::bigint AND erased_at > "
            + "\(requestedAt)::timestamptz)"
    }

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(riderID)
        bindings.append(requestedAt)
        return bindings
    }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Bool {
        try rows.bool(row, 0) == true
    }
}

/// The audit records of erasures, newest first, of one rider or of all.
struct RecentRiderErasures: PostgresPreparedStatement {
    static let name = "erasure_audit_recent_v1"
    static let sql = """
        SELECT (extract(epoch FROM erased_at) * 1000000)::bigint, trips::bigint, adjustments::bigint,
            rider_id, requested_by
        FROM rider_erasures WHERE $1::bigint IS NULL OR rider_id = $1
        ORDER BY erased_at DESC, id DESC LIMIT $2
        """
    static let resultFormat = PreparedStatement.ResultFormat.binary

    let riderID: RiderID?
    let limit: Int

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(riderID)
        bindings.append(limit)
        return bindings
    }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> RiderErasure {
        guard let raw = try rows.int64(row, 3), let riderID = RiderID(raw), let subject = try rows.string(row, 4)
        else { throw PostgresError(kind: .decoding, message: "erasure record without a rider") }
        return try RiderErasureRow.decode(rows, row: row, riderID: riderID, requestedBy: subject)
    }
}

/// Reads an erasure record's first three columns: the time in microseconds, the trips and the adjustments.
enum RiderErasureRow {
    static func decode(
        _ rows: PostgresRows, row: Int, riderID: RiderID, requestedBy: String
    ) throws(PostgresError) -> RiderErasure {
        guard let micros = try rows.int64(row, 0), let trips = try rows.int64(row, 1),
            let adjustments = try rows.int64(row, 2)
        else { throw PostgresError(kind: .decoding, message: "erasure record has an unexpected value") }
        return RiderErasure(
            riderID: riderID, erasedAt: Timestamp.date(micros: micros), trips: Int(trips),
            adjustments: Int(adjustments), requestedBy: requestedBy)
    }
}
