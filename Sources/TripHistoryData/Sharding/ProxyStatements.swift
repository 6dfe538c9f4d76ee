import Foundation
import TripHistoryDomain

/// A statement of the repositories run through the sharded topology's proxy: the proxy's function of the
/// statement's name (`scripts/shards/proxy.sql`), called with the statement's own parameters, which PL/Proxy
/// runs on the rider's partition as that partition's function of the same name and text. Its rows are the
/// statement's, so the statement decodes them. A fan-out (`AnalystFanOut`) gives the SQL that merges, on the
/// proxy, what the partitions' function answered into the statement's rows.
struct ProxyCall<Statement: PostgresStatement>: PostgresStatement {
    let statement: Statement
    let prepared: PreparedStatement
    private let bindings: PostgresBindings

    init(_ statement: Statement) {
        let name = statement.prepared.name
        let bindings = statement.makeBindings()
        self.init(
            statement, name: name, sql: "SELECT * FROM \(name)(\(placeholders(bindings.count)))", arguments: bindings)
    }

    /// `sql` run on the proxy with `arguments`, prepared as `proxy_NAME`, its rows decoded as `statement`'s.
    init(_ statement: Statement, name: String, sql: String, arguments: PostgresBindings) {
        self.statement = statement
        bindings = arguments
        prepared = PreparedStatement(name: "proxy_\(name)", sql: sql, resultFormat: statement.prepared.resultFormat)
    }

    func makeBindings() -> PostgresBindings { bindings }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Statement.Row {
        try statement.decodeRow(rows, row: row)
    }
}

/// `$1, $2, ..., $count`: a call's arguments.
func placeholders(_ count: Int) -> String {
    (0..<count).map { "$\($0 + 1)" }.joined(separator: ", ")
}

/// A write on its rider's partition, in the partition's one transaction, answering the trip as it then stands
/// and whether the request's idempotency key had already recorded it: `trip_history_record_trip` (the trip, its
/// receipt's parts, the feed's entry, the erasure check and the key) or `trip_history_record_adjustment`.
struct ProxyWriteCall: PostgresStatement {
    let prepared: PreparedStatement
    private let bindings: PostgresBindings

    private static let recordTrip = statement("trip_history_record_trip", arguments: 31)
    private static let recordAdjustment = statement("trip_history_record_adjustment", arguments: 9)

    private static func statement(_ function: String, arguments: Int) -> PreparedStatement {
        PreparedStatement(
            name: "proxy_\(function)",
            sql: "SELECT (trip).*, replayed FROM \(function)(\(placeholders(arguments)))", resultFormat: .binary)
    }

    /// The trip's 18 fields, its receipt's 10 parts and the key's scope, key and fingerprint.
    static func record(_ trip: NewTrip, idempotency: IdempotencyRequest?) -> ProxyWriteCall {
        var bindings = InsertTrip(trip: trip).makeBindings()
        InsertTripReceipt.appendParts(of: trip.receipt, to: &bindings)
        return ProxyWriteCall(recordTrip, bindings, idempotency)
    }

    /// The adjustment to the trip as it stood at `checkedVersion`, the version the service checked it against:
    /// the partition refuses it with TH412 when the trip has moved on. A nil version only answers a repeated
    /// request from its idempotency key.
    static func adjust(
        _ adjustment: NewAdjustment, tripID: TripID, riderID: RiderID, checkedVersion: Int?,
        idempotency: IdempotencyRequest?
    ) -> ProxyWriteCall {
        var bindings = PostgresBindings(capacity: 9)
        bindings.append(riderID)
        bindings.append(tripID)
        bindings.append(checkedVersion.map(Int32.init))
        bindings.append(adjustment.kind.rawValue)
        bindings.append(adjustment.amountMinor)
        bindings.append(adjustment.reason)
        return ProxyWriteCall(recordAdjustment, bindings, idempotency)
    }

    private init(_ prepared: PreparedStatement, _ arguments: PostgresBindings, _ idempotency: IdempotencyRequest?) {
        var bindings = arguments
        bindings.append(idempotency?.scope)
        bindings.append(idempotency?.key)
        bindings.append(idempotency?.fingerprint)
        self.prepared = prepared
        self.bindings = bindings
    }

    func makeBindings() -> PostgresBindings { bindings }

    /// The trip in detail form, then the replayed flag.
    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> RecordedTrip {
        let trip = try TripRowDecoder.detail(rows, row: row)
        guard let replayed = try rows.bool(row, TripRowDecoder.detailColumnCount) else {
            throw PostgresError(kind: .decoding, message: "a write's call returned no replayed flag")
        }
        return RecordedTrip(trip: trip, replayed: replayed)
    }
}

/// The rider erased on the rider's partition (`trip_history_erase_rider`), with the audit record's time and counts.
struct EraseRiderCall: PostgresStatement {
    let riderID: RiderID
    let requestedBy: String

    var prepared: PreparedStatement {
        PreparedStatement(
            name: "proxy_trip_history_erase_rider",
            sql: "SELECT erased_at_us, trips, adjustments FROM trip_history_erase_rider($1, $2)",
            resultFormat: .binary)
    }

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(riderID)
        bindings.append(requestedBy)
        return bindings
    }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> RiderErasure {
        try RiderErasureRow.decode(rows, row: row, riderID: riderID, requestedBy: requestedBy)
    }
}

/// After a write's call: its partition still holds the write (the trip at `version` or later; for an
/// erasure, `tripID` nil, no trip of the rider) and a standby has flushed it, or TH503 within `timeout`.
struct AwaitStandbyCopyCall: PostgresStatement {
    typealias Row = Void
    let riderID: RiderID
    let tripID: TripID?
    let version: Int
    let timeout: Duration

    var prepared: PreparedStatement {
        PreparedStatement(
            name: "proxy_trip_history_await_standby_copy",
            sql: "SELECT trip_history_await_standby_copy($1, $2, $3, $4)")
    }

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(riderID)
        bindings.append(tripID)
        bindings.append(Int32(version))
        bindings.append(Int32(clamping: timeout.wholeMilliseconds))
        return bindings
    }
}
