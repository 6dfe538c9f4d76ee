import TripHistoryDomain

/// The server a logical partition was read on: its system identifier (a physical standby shares it, so a
/// failover keeps it) and how many times the partition has moved. A feed position is a transaction id of that
/// server, meaningful nowhere else.
struct PartitionServer: Hashable, Sendable {
    let systemIdentifier: Int64
    let moves: Int64

    /// The topology the analysts' feed token keeps: FNV-1a over each partition's server, in partition order.
    static func fingerprint(_ servers: [PartitionServer]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for value in servers.flatMap({ [$0.systemIdentifier, $0.moves] }) {
            var bits = UInt64(bitPattern: value)
            for _ in 0..<8 {
                hash = (hash ^ (bits & 0xff)) &* 0x0000_0100_0000_01b3
                bits >>= 8
            }
        }
        return hash
    }

    /// The server in columns `column` (its system identifier) and `column + 1` (the partition's moves).
    static func decode(_ rows: PostgresRows, row: Int, column: Int) throws(PostgresError) -> PartitionServer {
        guard let system = try rows.int64(row, column), let moves = try rows.int64(row, column + 1) else {
            throw PostgresError(kind: .decoding, message: "a partition's row without its server")
        }
        return PartitionServer(systemIdentifier: system, moves: moves)
    }
}

/// Every partition's page of the analysts' feed, each after its own position (`trip_history_analyst_changes` on
/// the proxy, `AnalystChangesPage` on each partition): rows led by the partition's number and server.
struct PartitionedAnalystChanges: PostgresPreparedStatement {
    static let name = "proxy_trip_history_analyst_changes"
    static let sql = "SELECT * FROM trip_history_analyst_changes($1::text[], $2::bigint[], $3::bigint[], $4)"
    static let resultFormat = PreparedStatement.ResultFormat.binary

    let after: [AnalystChangePosition]
    /// Rows per partition at most.
    let limit: Int

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(after.map { String($0.transaction) })
        bindings.append(after.map(\.riderID))
        bindings.append(after.map(\.sequence))
        bindings.append(limit)
        return bindings
    }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> PartitionRow {
        let (partition, server) = try PartitionRow.identity(rows, row: row)
        return PartitionRow(
            partition: partition, server: server,
            entry: try AnalystChangesPage.decodeRow(rows, row: row, from: 3))
    }

    struct PartitionRow {
        let partition: Int
        let server: PartitionServer
        let entry: PurgeCheckedFeedRow<AnalystChangePosition>

        /// Columns 0-2: the partition's number, its server's system identifier and its moves.
        static func identity(_ rows: PostgresRows, row: Int) throws(PostgresError) -> (Int, PartitionServer) {
            guard let partition = try rows.int64(row, 0), partition >= 0 else {
                throw PostgresError(kind: .decoding, message: "feed row without its partition")
            }
            return (Int(partition), try PartitionServer.decode(rows, row: row, column: 1))
        }
    }
}

/// Every partition's position for now, with its number and server (`trip_history_analyst_feed_now`).
struct PartitionedAnalystFeedNow: PostgresPreparedStatement {
    static let name = "proxy_trip_history_analyst_feed_now"
    static let sql = "SELECT * FROM trip_history_analyst_feed_now()"
    static let resultFormat = PreparedStatement.ResultFormat.binary

    func makeBindings() -> PostgresBindings { PostgresBindings(capacity: 0) }

    func decodeRow(
        _ rows: PostgresRows, row: Int
    ) throws(PostgresError) -> (partition: Int, server: PartitionServer, oldest: UInt64) {
        let (partition, server) = try PartitionedAnalystChanges.PartitionRow.identity(rows, row: row)
        guard let oldest = try rows.int64(row, 3) else {
            throw PostgresError(kind: .decoding, message: "snapshot without an xmin")
        }
        return (partition, server, UInt64(bitPattern: oldest))
    }
}

/// The analysts' feed over the sharded topology's partitions, from their rows.
enum PartitionedAnalystFeed {
    /// The position for now: each partition's oldest running transaction, and the topology read with them.
    static func now(
        _ rows: [(partition: Int, server: PartitionServer, oldest: UInt64)]
    ) throws -> AnalystFeedPosition {
        let sorted = rows.sorted { $0.partition < $1.partition }
        guard !sorted.isEmpty, sorted.map(\.partition) == Array(0..<sorted.count) else {
            throw TripHistoryError.unavailable(retryAfterSeconds: 1)
        }
        return .partitioned(
            topology: PartitionServer.fingerprint(sorted.map(\.server)),
            positions: sorted.map { AnalystChangePosition(transaction: $0.oldest, riderID: 0, sequence: 0) })
    }

    /// The page after `positions` from every partition's rows (each read with a limit of `limit + 1`): refused
    /// with `.feedTopologyChanged` when the partitions are not the token's (another count, or one on another
    /// server), with `.changesPurged` when any partition's purge passed its position. Up to `limit` changes,
    /// shared among the partitions that have some in turn, so that no partition's changes wait behind a busier
    /// one's; each partition's next position is its last change handed out (its own unchanged when none).
    static func page(
        _ rows: [PartitionedAnalystChanges.PartitionRow], topology: UInt64, after positions: [AnalystChangePosition],
        limit: Int
    ) throws(TripHistoryError) -> AnalystChangePage {
        var servers = [PartitionServer?](repeating: nil, count: positions.count)
        var entries = [[PurgeCheckedFeedRow<AnalystChangePosition>]](repeating: [], count: positions.count)
        var counts = [Int](repeating: 0, count: positions.count)
        for row in rows {
            guard row.partition < positions.count else { throw .feedTopologyChanged }
            servers[row.partition] = row.server
            entries[row.partition].append(row.entry)
            if case .entry = row.entry { counts[row.partition] += 1 }
        }
        let read = servers.compactMap { $0 }
        guard read.count == positions.count, PartitionServer.fingerprint(read) == topology else {
            throw .feedTopologyChanged
        }
        let shares = shares(of: limit, among: counts)
        var changes: [TripChange] = []
        var next: [AnalystChangePosition] = []
        var hasMore = false
        for partition in positions.indices {
            let page = try ChangeFeedRow.page(entries[partition], limit: shares[partition], after: positions[partition])
            changes += page.changes
            next.append(page.next)
            hasMore = hasMore || page.hasMore
        }
        return AnalystChangePage(
            changes: changes, next: .partitioned(topology: topology, positions: next), hasMore: hasMore)
    }

    /// How many of each partition's `counts` changes a page of `limit` takes: one from each partition that has
    /// one left, in turn, until the page is full or no partition has more.
    static func shares(of limit: Int, among counts: [Int]) -> [Int] {
        var shares = [Int](repeating: 0, count: counts.count)
        var left = max(limit, 0)
        var taken = true
        while left > 0, taken {
            taken = false
            for partition in counts.indices where left > 0 && shares[partition] < counts[partition] {
                shares[partition] += 1
                left -= 1
                taken = true
            }
        }
        return shares
    }
}
