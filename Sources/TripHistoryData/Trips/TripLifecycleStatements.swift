import Foundation
import TripHistoryDomain

/// Stores the receipt's parts of a trip just inserted; written only when the trip reported any.
struct InsertTripReceipt: PostgresPreparedStatement {
    typealias Row = Void
    static let name = "trip_receipts_insert_v1"
    static let sql = """
        INSERT INTO trip_receipts (trip_id, fare_breakdown, payment_method, payment_brand, payment_last4,
            driver_first_name, vehicle_make, vehicle_model, vehicle_color, vehicle_plate, route_polyline)
        VALUES ($1, $2::jsonb, $3, $4, $5, $6, $7, $8, $9, $10, $11)
        """

    let tripID: TripID
    let receipt: TripReceipt

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 11)
        bindings.append(tripID)
        Self.appendParts(of: receipt, to: &bindings)
        return bindings
    }

    /// The receipt's ten parts in the column order above (after `trip_id`), each NULL when not recorded.
    static func appendParts(of receipt: TripReceipt, to bindings: inout PostgresBindings) {
        bindings.append(receipt.breakdown.map(TripRowDecoder.breakdownJSON))
        bindings.append(receipt.payment?.method.rawValue)
        bindings.append(receipt.payment?.brand)
        bindings.append(receipt.payment?.last4)
        bindings.append(receipt.driver?.firstName)
        bindings.append(receipt.driver?.vehicle?.make)
        bindings.append(receipt.driver?.vehicle?.model)
        bindings.append(receipt.driver?.vehicle?.color)
        bindings.append(receipt.driver?.vehicle?.plate)
        bindings.append(receipt.route?.polyline)
    }
}

/// The rider's trip with this id, locked until the transaction ends, so that adjustments of one trip are
/// checked and applied one at a time.
struct LockTrip: PostgresPreparedStatement {
    static let name = "trips_lock_v1"
    static let sql = "SELECT \(TripStatements.columns) FROM trips WHERE id = $1 AND rider_id = $2 FOR UPDATE"
    static let resultFormat = PreparedStatement.ResultFormat.binary

    let id: TripID
    let riderID: RiderID

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(id)
        bindings.append(riderID)
        return bindings
    }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Trip {
        try TripRowDecoder.trip(rows, row: row)
    }
}

/// Appends an adjustment to the ledger and adds it to the trip's totals and version in one statement.
struct InsertAdjustment: PostgresPreparedStatement {
    static let name = "trip_adjustments_insert_v1"
    static let sql = """
        WITH adjustment AS (
            INSERT INTO trip_adjustments (trip_id, kind, amount_minor, reason) VALUES ($1, $2, $3, $4) RETURNING id
        )
        UPDATE trips SET version = version + 1, updated_at = now(),
            tips_minor = tips_minor + CASE WHEN $2 = 'tip' THEN $3::bigint ELSE 0 END,
            refunds_minor = refunds_minor + CASE WHEN $2 = 'refund' THEN $3::bigint ELSE 0 END,
            corrections_minor = corrections_minor + CASE WHEN $2 = 'fare_correction' THEN $3::bigint ELSE 0 END
        WHERE id = $1
        RETURNING (SELECT id FROM adjustment)
        """
    static let resultFormat = PreparedStatement.ResultFormat.binary

    let tripID: TripID
    let adjustment: NewAdjustment

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(tripID)
        bindings.append(adjustment.kind.rawValue)
        bindings.append(adjustment.amountMinor)
        bindings.append(adjustment.reason)
        return bindings
    }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> AdjustmentID {
        guard let raw = try rows.int64(row, 0), let id = AdjustmentID(raw) else {
            throw PostgresError(kind: .decoding, message: "adjustment insert returned no id")
        }
        return id
    }
}

/// The trip an idempotency key recorded (or adjusted), and whether `fingerprint` matches the request that
/// used it first; only the trip's id is read, the caller reads the trip as it stands now.
struct FindIdempotentTrip: PostgresPreparedStatement {
    static let name = "idempotency_find_trip_v1"
    static let sql = """
        SELECT k.fingerprint_md5 = md5($3), k.trip_id FROM idempotency_keys k WHERE k.scope = $1 AND k.key = $2
        """
    static let resultFormat = PreparedStatement.ResultFormat.binary

    let scope: String
    let key: String
    let fingerprint: String

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(scope)
        bindings.append(key)
        bindings.append(fingerprint)
        return bindings
    }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> (fingerprintMatches: Bool, tripID: TripID) {
        guard let raw = try rows.int64(row, 1), let id = TripID(raw) else {
            throw PostgresError(kind: .decoding, message: "idempotency key without a trip")
        }
        return (try rows.bool(row, 0) == true, id)
    }
}
