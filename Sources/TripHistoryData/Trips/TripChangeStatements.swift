import TripHistoryDomain

/// Writes one entry of the changes feed in the writing transaction, numbered with the next number of the
/// rider's sequence; the rider's counter row stays locked until the transaction ends, so the rider's entries
/// commit in the order of their numbers.
struct InsertTripChange: PostgresPreparedStatement {
    typealias Row = Void
    static let name = "trip_changes_insert_v1"
    static let sql = """
        WITH counter AS (
            INSERT INTO rider_change_counters AS c (rider_id, last_seq) VALUES ($1, 1)
            ON CONFLICT (rider_id) DO UPDATE SET last_seq = c.last_seq + 1
            RETURNING last_seq
        )
        INSERT INTO trip_changes (rider_id, seq, trip_id, change) SELECT $1, last_seq, $2, $3 FROM counter
        """

    enum Change: String {
        case upsert
        case erased
    }

    let riderID: RiderID
    let tripID: TripID
    let change: Change

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(riderID)
        bindings.append(tripID)
        bindings.append(change.rawValue)
        return bindings
    }
}

/// The rider's changes after a number, in order, each upsert with its trip as it stands now (none when the
/// trip is gone); or, when the purge has removed entries after that number, only the row that says so.
struct RiderChangesPage: PostgresPreparedStatement {
    static let name = "trip_changes_page_v2"
    static let sql = """
        SELECT mark.behind, c.seq, c.change, c.trip_id, trips.id IS NOT NULL, \(TripStatements.columns.qualified(by: "trips"))
        FROM (
            SELECT EXISTS (SELECT 1 FROM rider_change_purges WHERE rider_id = $1 AND purged_through > $2) AS behind
        ) mark
        LEFT JOIN LATERAL (
            SELECT seq, change, trip_id FROM trip_changes
            WHERE rider_id = $1 AND seq > $2 AND NOT mark.behind
            ORDER BY seq
            LIMIT $3
        ) c ON true
        LEFT JOIN trips ON trips.id = c.trip_id AND c.change = 'upsert'
        ORDER BY c.seq
        """
    static let resultFormat = PreparedStatement.ResultFormat.binary

    let riderID: RiderID
    let after: ChangePosition
    let limit: Int

    /// The read of a page of up to `pageLimit` changes after `position` (from the start when nil): one row more
    /// than the page, which `ChangeFeedRow.page` uses to tell whether more follow.
    init(riderID: RiderID, after position: ChangePosition?, pageLimit: Int) {
        self.riderID = riderID
        after = position ?? .start
        limit = max(pageLimit, 0) + 1
    }

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(riderID)
        bindings.append(after.sequence)
        bindings.append(limit)
        return bindings
    }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> PurgeCheckedFeedRow<ChangePosition> {
        try PurgeCheckedFeedRow(rows, row: row) { () throws(PostgresError) in
            guard let sequence = try rows.int64(row, 1) else { return nil }
            return try ChangeFeedRow(position: ChangePosition(sequence: sequence), rows, row: row, from: 2)
        }
    }
}

/// The number of the rider's last change, if any.
struct RiderLastChange: PostgresPreparedStatement {
    static let name = "trip_changes_last_v1"
    static let sql = "SELECT last_seq FROM rider_change_counters WHERE rider_id = $1"
    static let resultFormat = PreparedStatement.ResultFormat.binary

    let riderID: RiderID

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(riderID)
        return bindings
    }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Int64 {
        guard let last = try rows.int64(row, 0) else {
            throw PostgresError(kind: .decoding, message: "counter without a value")
        }
        return last
    }
}

/// Every rider's changes after a position, ordered by writing transaction, rider and sequence, each upsert with
/// its trip as it stands now (none when the trip is gone); or, when the purge has removed entries after that
/// position, only the row that says so. Only changes of transactions older than the oldest still running
/// (`pg_snapshot_xmin`) are read: those transactions have all ended, so no change can later appear before one
/// handed out (`AnalystChangePosition`). An index range scan on `trip_changes_xid`.
struct AnalystChangesPage: PostgresPreparedStatement {
    static let name = "trip_changes_analyst_page_v2"
    static let sql = """
        SELECT mark.behind, c.xid::text::bigint, c.rider_id, c.seq, c.change, c.trip_id, trips.id IS NOT NULL,
            \(TripStatements.columns.qualified(by: "trips"))
        FROM (
            SELECT EXISTS (
                SELECT 1 FROM analyst_change_purge p
                WHERE (p.xid, p.rider_id, p.seq) > ($1::text::xid8, $2::bigint, $3::bigint)
            ) AS behind
        ) mark
        LEFT JOIN LATERAL (
            SELECT xid, rider_id, seq, change, trip_id FROM trip_changes c
            WHERE c.xid IS NOT NULL AND (c.xid, c.rider_id, c.seq) > ($1::text::xid8, $2::bigint, $3::bigint)
              AND c.xid < pg_snapshot_xmin(pg_current_snapshot()) AND NOT mark.behind
            ORDER BY c.xid, c.rider_id, c.seq
            LIMIT $4
        ) c ON true
        LEFT JOIN trips ON trips.id = c.trip_id AND c.change = 'upsert'
        ORDER BY c.xid, c.rider_id, c.seq
        """
    static let resultFormat = PreparedStatement.ResultFormat.binary

    let after: AnalystChangePosition
    let limit: Int

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(String(after.transaction))
        bindings.append(after.riderID)
        bindings.append(after.sequence)
        bindings.append(limit)
        return bindings
    }

    func decodeRow(
        _ rows: PostgresRows, row: Int
    ) throws(PostgresError) -> PurgeCheckedFeedRow<AnalystChangePosition> {
        try Self.decodeRow(rows, row: row, from: 0)
    }

    /// The row's columns from `column` on, where a partition's page of the feed has them after its own.
    static func decodeRow(
        _ rows: PostgresRows, row: Int, from column: Int
    ) throws(PostgresError) -> PurgeCheckedFeedRow<AnalystChangePosition> {
        try PurgeCheckedFeedRow(rows, row: row, behindColumn: column) { () throws(PostgresError) in
            guard let transaction = try rows.int64(row, column + 1), let riderID = try rows.int64(row, column + 2),
                let sequence = try rows.int64(row, column + 3)
            else { return nil }
            let position = AnalystChangePosition(
                transaction: UInt64(bitPattern: transaction), riderID: riderID, sequence: sequence)
            return try ChangeFeedRow(position: position, rows, row: row, from: column + 4)
        }
    }
}

/// The oldest transaction still running (every older one has ended): the analysts' feed's position for now.
struct OldestRunningTransaction: PostgresPreparedStatement {
    static let name = "trip_changes_analyst_now_v1"
    static let sql = "SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint"
    static let resultFormat = PreparedStatement.ResultFormat.binary

    func makeBindings() -> PostgresBindings { PostgresBindings(capacity: 0) }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> UInt64 {
        guard let xmin = try rows.int64(row, 0) else {
            throw PostgresError(kind: .decoding, message: "snapshot without an xmin")
        }
        return UInt64(bitPattern: xmin)
    }
}

/// One entry of a changes feed as its page statement reads it: its position, its trip's id, and the trip when
/// it is an upsert of a trip that still exists.
struct ChangeFeedRow<Position: Hashable & Sendable> {
    let position: Position
    let tripID: TripID
    let isErasure: Bool
    let trip: Trip?

    static var unexpected: PostgresError {
        PostgresError(kind: .decoding, message: "change row has an unexpected value")
    }

    /// Reads the columns from `column` on: the change, the trip's id, whether the trip exists, then its columns.
    init(position: Position, _ rows: PostgresRows, row: Int, from column: Int) throws(PostgresError) {
        guard let kind = try rows.string(row, column), let rawID = try rows.int64(row, column + 1),
            let tripID = TripID(rawID)
        else { throw Self.unexpected }
        self.position = position
        self.tripID = tripID
        isErasure = kind == "erased"
        trip =
            try rows.bool(row, column + 2) == true ? try TripRowDecoder.trip(rows, row: row, offset: column + 3) : nil
    }

    /// The page of `rows`, read with a limit of `limit + 1` after `after`. A change whose trip is gone (upserted,
    /// then erased) is not handed out, but its position counts: the erasure follows it in the feed. A trip
    /// changed twice within the page appears once, at its last change. Throws `.changesPurged` when the rows say
    /// the purge has passed `after`.
    static func page(
        _ checked: [PurgeCheckedFeedRow<Position>], limit: Int, after: Position
    ) throws(TripHistoryError) -> FeedPage<Position> {
        var rows: [Self] = []
        rows.reserveCapacity(checked.count)
        for row in checked {
            switch row {
            case .behindPurge: throw .changesPurged
            case .noEntry: continue
            case .entry(let entry): rows.append(entry)
            }
        }
        let page = rows.prefix(limit)
        let changes = page.compactMap { row -> TripChange? in
            row.isErasure ? .erased(row.tripID) : row.trip.map(TripChange.upsert)
        }
        var lastIndex: [TripID: Int] = [:]
        for (index, change) in changes.enumerated() { lastIndex[change.tripID] = index }
        return FeedPage(
            changes: changes.enumerated().filter { lastIndex[$0.element.tripID] == $0.offset }.map(\.element),
            next: page.last?.position ?? after, hasMore: rows.count > limit)
    }
}

/// One row of a feed page statement that also reads its feed's purge mark: the mark is past the position read
/// after (the page is not read), no entry after it (the lone row of an empty page), or an entry.
enum PurgeCheckedFeedRow<Position: Hashable & Sendable> {
    case behindPurge
    case noEntry
    case entry(ChangeFeedRow<Position>)

    /// Reads `behindColumn` (whether the mark is past the position), then the entry `decodeEntry` reads, nil
    /// when the row has none.
    init(
        _ rows: PostgresRows, row: Int, behindColumn: Int = 0,
        decodeEntry: () throws(PostgresError) -> ChangeFeedRow<Position>?
    ) throws(PostgresError) {
        if try rows.bool(row, behindColumn) == true {
            self = .behindPurge
        } else if let entry = try decodeEntry() {
            self = .entry(entry)
        } else {
            self = .noEntry
        }
    }
}
