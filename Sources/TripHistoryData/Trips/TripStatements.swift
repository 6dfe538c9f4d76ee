import Foundation
import TripHistoryDomain

/// The statements of the trip repository, one type each. Every list read is one of two statements whose open
/// bounds are bound as `-infinity`/`infinity` and whose status filter is an array, so each plans as an index
/// range scan on `trips_rider_history (rider_id, requested_at DESC, id DESC)`. Statements that return trips
/// ask for them in binary form, which spares the server its text output of timestamps and doubles and this
/// process the parsing of them.
enum TripStatements {
    /// The columns `TripRowDecoder` reads, in its order.
    static let columns = """
        id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, \
        pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, \
        distance_m, duration_s, fare_amount_minor, fare_currency, \
        version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor
        """

    /// The CTEs, to follow others in a `WITH`, that delete the parts of the trips whose ids CTE `trips`
    /// returns (as `id`): their receipts, idempotency keys and ledger rows, the ledger's as `ledger_rows` with a
    /// row per entry deleted. Every statement that removes trips deletes their parts with it, since those tables
    /// name their trip without a foreign key (migration 0008).
    static func partsDeletion(of trips: String) -> String {
        """
        receipts AS (
            DELETE FROM trip_receipts WHERE trip_id IN (SELECT id FROM \(trips))
        ), keys AS (
            DELETE FROM idempotency_keys WHERE trip_id IN (SELECT id FROM \(trips))
        ), ledger_rows AS (
            DELETE FROM trip_adjustments WHERE trip_id IN (SELECT id FROM \(trips)) RETURNING 1
        )
        """
    }

    /// The receipt's columns and the ledger as a JSON array, which a detail read adds after `columns`
    /// (`TripRowDecoder.detail` reads them); the trip is `trips` joined with `trip_receipts` as `r`.
    static let detailColumns = """
        r.fare_breakdown::text, r.payment_method, r.payment_brand, r.payment_last4, r.driver_first_name, \
        r.vehicle_make, r.vehicle_model, r.vehicle_color, r.vehicle_plate, r.route_polyline, \
        \(ledger)
        """

    /// The fare breakdown and the ledger, which an analyst export with its ledger adds after `columns`
    /// (`TripRowDecoder.withLedger`), with the same join as `detailColumns`: the money of the receipt, none of
    /// its personal parts.
    static let ledgerColumns = "r.fare_breakdown::text, \(ledger)"

    /// The trip's adjustments as one JSON array, oldest first, NULL when it has none.
    private static let ledger = """
        (SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'amount_minor', a.amount_minor, \
            'reason', a.reason, 'created_at_us', (extract(epoch FROM a.created_at) * 1000000)::bigint) ORDER BY a.id) \
         FROM trip_adjustments a WHERE a.trip_id = trips.id)::text
        """

    /// The statuses a status filter matches, as array values built once.
    static func statuses(_ filter: TripStatus?) -> PostgresArray {
        switch filter {
        case nil: allStatuses
        case .completed: completedOnly
        case .canceled: canceledOnly
        }
    }

    private static let allStatuses = PostgresArray(TripStatus.allCases)
    private static let completedOnly = PostgresArray([TripStatus.completed])
    private static let canceledOnly = PostgresArray([TripStatus.canceled])
}

/// The key a keyset read continues from: its position's key, or for a first page (newest first) the window's
/// upper end with the smallest id. `(requested_at, id) < (to, Int64.min)` matches the same rows as
/// `requested_at < to`, and it is the bound the index scan starts at: with `infinity` there instead, the scan of a
/// past window starts at the newest entry of the rider (or city) and walks past every newer one.
struct KeysetStart: Sendable {
    let requestedAt: PostgresTimestampBound
    let id: Int64

    init(after key: TripKey?, to: PostgresTimestampBound) {
        if let key {
            requestedAt = .micros(key.requestedAtMicros)
            id = key.id.rawValue
        } else {
            requestedAt = to
            id = .min
        }
    }
}

/// Which way a keyset read goes from its position.
enum KeysetDirection: Hashable, Sendable {
    /// Newest first, strictly below the position.
    case older
    /// Oldest first, strictly above the position.
    case newer

    /// The direction of a read from `position`: newest first unless the position asks for newer trips.
    init(of position: PagePosition?) {
        self = position?.direction == .newer ? .newer : .older
    }
}

/// Up to `limit` trips of one rider requested in `[from, to)` with one of `statuses`, strictly beyond the key
/// (`keyRequestedAt`, `keyID`) in `direction`.
struct RiderTripsPage: PostgresStatement {
    static let older = PreparedStatement(
        name: "trips_older_v2", sql: sql(comparison: "<", order: "DESC"), resultFormat: .binary)
    static let newer = PreparedStatement(
        name: "trips_newer_v2", sql: sql(comparison: ">", order: "ASC"), resultFormat: .binary)

    private static func sql(comparison: String, order: String) -> String {
        """
        SELECT \(TripStatements.columns) FROM trips
        WHERE rider_id = $1 AND requested_at >= $2::timestamptz AND requested_at < $3::timestamptz
          AND (requested_at, id) \(comparison) ($4::timestamptz, $5::bigint) AND status = ANY ($6::text[])
        ORDER BY requested_at \(order), id \(order)
        LIMIT $7
        """
    }

    let direction: KeysetDirection
    let riderID: RiderID
    let from: PostgresTimestampBound
    let to: PostgresTimestampBound
    let keyRequestedAt: PostgresTimestampBound
    let keyID: Int64
    let statuses: PostgresArray
    let limit: Int

    var prepared: PreparedStatement { direction == .older ? Self.older : Self.newer }

    /// The page `query` asks for: up to `fetchLimit` trips strictly beyond its position, `from` inclusive and
    /// `to` exclusive, open bounds as infinities.
    init(_ query: TripPageQuery) {
        let range = query.filter.range
        let to = range.to.map(PostgresTimestampBound.init) ?? .infinity
        let start = KeysetStart(after: query.position?.key, to: to)
        self.init(
            direction: KeysetDirection(of: query.position), riderID: query.riderID,
            from: range.from.map(PostgresTimestampBound.init) ?? .negativeInfinity, to: to,
            keyRequestedAt: start.requestedAt, keyID: start.id,
            statuses: TripStatements.statuses(query.filter.status), limit: max(query.fetchLimit, 0))
    }

    init(
        direction: KeysetDirection, riderID: RiderID, from: PostgresTimestampBound, to: PostgresTimestampBound,
        keyRequestedAt: PostgresTimestampBound, keyID: Int64, statuses: PostgresArray, limit: Int
    ) {
        self.direction = direction
        self.riderID = riderID
        self.from = from
        self.to = to
        self.keyRequestedAt = keyRequestedAt
        self.keyID = keyID
        self.statuses = statuses
        self.limit = limit
    }

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 7)
        bindings.append(riderID)
        bindings.append(from)
        bindings.append(to)
        bindings.append(keyRequestedAt)
        bindings.append(keyID)
        bindings.append(statuses)
        bindings.append(limit)
        return bindings
    }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Trip {
        try TripRowDecoder.trip(rows, row: row)
    }
}

/// The trip with this id if `riderID` owns it, with its receipt and adjustments.
struct TripByID: PostgresPreparedStatement {
    static let name = "trips_by_id_v2"
    static let sql = """
        SELECT \(TripStatements.columns), \(TripStatements.detailColumns)
        FROM trips LEFT JOIN trip_receipts r ON r.trip_id = trips.id WHERE trips.id = $1 AND trips.rider_id = $2
        """
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
        try TripRowDecoder.detail(rows, row: row)
    }
}

/// Up to `limit` of a rider's trips strictly older than the key, newest first, each with its receipt and
/// ledger: a batch of the rider's export. A keyset range scan on `trips_rider_history` like a list page.
struct RiderTripsExportBatch: PostgresPreparedStatement {
    static let name = "trips_export_batch_v1"
    static let sql = """
        SELECT \(TripStatements.columns), \(TripStatements.detailColumns)
        FROM trips LEFT JOIN trip_receipts r ON r.trip_id = trips.id
        WHERE trips.rider_id = $1 AND (trips.requested_at, trips.id) < ($2::timestamptz, $3::bigint)
        ORDER BY trips.requested_at DESC, trips.id DESC
        LIMIT $4
        """
    static let resultFormat = PreparedStatement.ResultFormat.binary

    let riderID: RiderID
    let keyRequestedAt: PostgresTimestampBound
    let keyID: Int64
    let limit: Int

    /// Up to `limit` of the rider's trips older than `after` (from the newest when nil).
    init(riderID: RiderID, after: TripKey?, limit: Int) {
        let start = KeysetStart(after: after, to: .infinity)
        self.riderID = riderID
        keyRequestedAt = start.requestedAt
        keyID = start.id
        self.limit = max(limit, 0)
    }

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(riderID)
        bindings.append(keyRequestedAt)
        bindings.append(keyID)
        bindings.append(limit)
        return bindings
    }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Trip {
        try TripRowDecoder.detail(rows, row: row)
    }
}

/// Stores a validated trip and returns its new id.
struct InsertTrip: PostgresPreparedStatement {
    static let name = "trips_insert_v2"
    static let sql = """
        INSERT INTO trips (rider_id, status, product, city, time_zone, requested_at, started_at, completed_at,
            pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address,
            distance_m, duration_s, fare_amount_minor, fare_currency)
        VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz, $8::timestamptz,
            $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
        RETURNING id, recorded_at
        """
    static let resultFormat = PreparedStatement.ResultFormat.binary

    let trip: NewTrip

    /// The recorded fields in the order of the column list above.
    func makeBindings() -> PostgresBindings {
        let details = trip.details
        var bindings = PostgresBindings(capacity: 18)
        bindings.append(trip.riderID)
        bindings.append(details.status)
        bindings.append(details.product)
        bindings.append(details.city)
        bindings.append(details.timeZone)
        bindings.append(details.requestedAt)
        bindings.append(details.startedAt)
        bindings.append(details.completedAt)
        bindings.append(details.pickup.latitude)
        bindings.append(details.pickup.longitude)
        bindings.append(details.pickup.address)
        bindings.append(details.dropoff.latitude)
        bindings.append(details.dropoff.longitude)
        bindings.append(details.dropoff.address)
        bindings.append(details.distanceMeters)
        bindings.append(details.durationSeconds)
        bindings.append(details.fare.amountMinor)
        bindings.append(details.fare.currency)
        return bindings
    }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> (id: TripID, recordedAt: Date) {
        guard let raw = try rows.int64(row, 0), let id = TripID(raw), let recordedAt = try rows.timestampMicros(row, 1)
        else {
            throw PostgresError(kind: .decoding, message: "insert returned no id")
        }
        return (id, Timestamp.date(micros: recordedAt))
    }
}

/// True when this transaction now holds the lock of the idempotency key `key` in `scope`.
struct LockIdempotencyKey: PostgresPreparedStatement {
    static let name = "idempotency_lock_v1"
    static let sql = "SELECT pg_try_advisory_xact_lock(hashtextextended($1 || ':' || $2, 0))"
    static let resultFormat = PreparedStatement.ResultFormat.binary

    let scope: String
    let key: String

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(scope)
        bindings.append(key)
        return bindings
    }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Bool {
        try rows.bool(row, 0) == true
    }
}

/// Rewrites an idempotency key's row unchanged. PostgreSQL makes a commit wait for synchronous standbys only
/// when its transaction wrote WAL (an id alone is not enough), so a transaction that acknowledges an earlier
/// write without writing itself would not wait for that write to reach them.
struct TouchIdempotencyKey: PostgresPreparedStatement {
    typealias Row = Void
    static let name = "idempotency_touch_v1"
    static let sql = "UPDATE idempotency_keys SET created_at = created_at WHERE scope = $1 AND key = $2"

    let scope: String
    let key: String

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(scope)
        bindings.append(key)
        return bindings
    }
}

/// Remembers which trip the idempotency key `key` in `scope` recorded, and the request's fingerprint.
struct InsertIdempotencyKey: PostgresPreparedStatement {
    typealias Row = Void
    static let name = "idempotency_insert_v1"
    static let sql = """
        INSERT INTO idempotency_keys (scope, key, fingerprint_md5, trip_id, created_at)
        VALUES ($1, $2, md5($3), $4, now())
        """

    let scope: String
    let key: String
    let fingerprint: String
    let tripID: TripID

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(scope)
        bindings.append(key)
        bindings.append(fingerprint)
        bindings.append(tripID)
        return bindings
    }
}

/// Announces a change of the rider's trips on the change channel, delivered at commit: the rider id, then
/// `detail` after a space when given (on the sharded topology, the rider's partition's position).
struct NotifyTripChange: PostgresPreparedStatement {
    typealias Row = Void
    static let name = "trips_notify_change_v1"
    static let sql = "SELECT pg_notify('\(PostgresChangeListener.channel)', $1)"

    let riderID: RiderID
    var detail: String? = nil

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(detail.map { "\(riderID) \($0)" } ?? riderID.description)
        return bindings
    }
}

extension String {
    /// A column list with each column prefixed by `table`, for statements that join.
    func qualified(by table: String) -> String {
        split(separator: ",").map { table + "." + $0.drop(while: { $0 == " " }) }.joined(separator: ", ")
    }
}
