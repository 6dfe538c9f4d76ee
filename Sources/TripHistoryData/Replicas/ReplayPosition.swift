/// The replay position of the server a connection is on: nil when it is not a standby (not in recovery).
/// Sent ahead of reads that must see a given position, in the same pipeline, so the check is about the very
/// connection that serves them.
struct ReplayPosition: PostgresPreparedStatement {
    static let name = "replay_position_v1"
    static let sql = "SELECT pg_last_wal_replay_lsn()::text"

    func makeBindings() -> PostgresBindings { PostgresBindings(capacity: 0) }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> WALPosition? {
        try rows.string(row, 0).flatMap(WALPosition.init)
    }
}

/// A read sent to a standby that had not replayed what it had to see; the caller reads from the writer
/// instead.
public struct ReplicaBehind: Error, Equatable {
    public init() {}
}
