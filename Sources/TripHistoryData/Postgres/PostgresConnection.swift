internal import CLibPQ
import Tracing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One open libpq connection, the single owner of its `PGconn` (closed on deinit).
///
/// Every method blocks the calling thread on network I/O, so call them only from a thread that may block
/// (the pool runs them on its `NIOThreadPool`). A connection is used by one thread at a time. The socket is in
/// libpq's nonblocking mode: each statement is sent, then its results are awaited with `poll(2)` for at most
/// `queryTimeout` each, so a server that stops answering without closing the socket cannot hold a thread
/// for the kernel's retransmission time. A statement given up on is canceled and the connection with it.
// @unchecked Sendable: the pool hands a connection to exactly one thread-pool job at a time, so the
// mutable handle is never touched concurrently even though the reference crosses threads.
public final class PostgresConnection: @unchecked Sendable {
    /// Internal so the notification extension can reach the socket; it never leaves the module.
    let handle: OpaquePointer
    private var preparedNames: Set<String> = []
    /// Longest PostgreSQL may stay silent about a statement sent on this connection (awaiting each result,
    /// or sending) before the client cancels it and gives the connection up with a `PostgresError` of kind
    /// `timedOut`; nil waits without bound. Keep it above the session's `statement_timeout`, so the server's
    /// own timeout (SQLSTATE 57014, connection intact) answers first whenever the server is alive.
    public var queryTimeout: Duration?
    /// Set once a statement was given up on: the connection's protocol state is unknown, so it is never used
    /// again.
    var isAbandoned = false
    /// Whether giving a statement up also asks the server to cancel it; false while a `COMMIT` runs, whose
    /// cancellation would keep the commit locally but skip its wait for a synchronous standby.
    var cancelsAbandonedStatements = true
    /// Where the time of each prepared statement and commit is recorded, when the connection belongs to a
    /// pool that measures them.
    var statementTimers: PostgresStatementTimers?
    /// The context of the request the connection works for right now, when its pool traces: the parent of
    /// its statements' spans, set by the pool around each loan because the loan runs on the pool's thread,
    /// outside the caller's task.
    var traceContext: ServiceContext?

    /// TCP keepalives and a TCP user timeout, so an idle connection to a peer that vanished, or data the
    /// peer never acknowledges, fail after about eleven seconds instead of the kernel's default of hours or
    /// minutes. Settings of the same name in a connection string win.
    public static let networkSettings: [(keyword: String, value: String)] = [
        ("keepalives", "1"), ("keepalives_idle", "5"), ("keepalives_interval", "2"), ("keepalives_count", "3"),
        ("tcp_user_timeout", "11000"),
    ]

    /// Settings that come after the connection string, so they win over it (and over `PGCLIENTENCODING`):
    /// the service reads and writes every text as UTF-8 (bindings are Swift strings' bytes, results are
    /// decoded as UTF-8, `COPY` data is UTF-8), so a session in another encoding would have the server
    /// reinterpret those bytes, store mojibake or refuse text its encoding lacks.
    public static let enforcedSettings: [(keyword: String, value: String)] = [("client_encoding", "UTF8")]

    /// Opens a connection. `connectionString` is a `postgresql://` URI or a `key=value` conninfo string;
    /// its own settings win over the defaults given here and `networkSettings`, but not over
    /// `enforcedSettings`. The session is set to UTC
    /// with the given statement timeout (0: none), and `queryTimeout` to the statement timeout plus
    /// `queryGrace` (nil without a statement timeout), which also bounds the session setup. Throws
    /// `PostgresError` of kind `connectionFailed` when the server cannot be reached.
    public init(
        connectionString: String, connectTimeoutSeconds: Int = 3, statementTimeoutMilliseconds: Int = 5000,
        queryGrace: Duration = .seconds(1), applicationName: String = "trip-history"
    ) throws(PostgresError) {
        // Later keywords override earlier ones, and libpq expands the connection string (`dbname`) in place,
        // so its own settings override the defaults before it and are overridden by the enforced ones after.
        let settings = Self.networkSettings
        let enforced = Self.enforcedSettings
        let keywords =
            ["connect_timeout", "application_name"] + settings.map(\.keyword) + ["dbname"] + enforced.map(\.keyword)
        let values =
            [String(max(connectTimeoutSeconds, 1)), applicationName] + settings.map(\.value) + [connectionString]
            + enforced.map(\.value)
        let connection = Self.connect(keywords: keywords, values: values)
        guard let connection else {
            throw PostgresError(kind: .connectionFailed, message: "out of memory while connecting")
        }
        guard PQstatus(connection) == CONNECTION_OK, PQsetnonblocking(connection, 1) == 0 else {
            let message = PostgresError.libpqMessage(connection)
            PQfinish(connection)
            throw PostgresError(kind: .connectionFailed, message: message)
        }
        self.handle = connection
        let statementTimeout = max(statementTimeoutMilliseconds, 0)
        self.queryTimeout = statementTimeout > 0 ? .milliseconds(statementTimeout) + queryGrace : nil
        do {
            try execute(unsafeSQL: "SET TIME ZONE 'UTC'; SET statement_timeout = \(statementTimeout)")
        } catch {
            throw PostgresError(kind: .connectionFailed, sqlState: error.sqlState, message: error.message)
        }
    }

    deinit {
        PQfinish(handle)
    }

    private static func connect(keywords: [String], values: [String]) -> OpaquePointer? {
        CStringArray.with(keywords) { keywordPointers in
            CStringArray.with(values) { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
    }

    /// Runs `body` with `queryTimeout` set to `timeout` (nil: no bound), restoring the previous one after;
    /// for work whose statements may legitimately run longer than the session's default, e.g. under a
    /// `SET LOCAL statement_timeout`.
    public func withQueryTimeout<T>(_ timeout: Duration?, _ body: () throws -> T) rethrows -> T {
        let previous = queryTimeout
        queryTimeout = timeout
        defer { queryTimeout = previous }
        return try body()
    }

    /// Runs `body` with neither the session's `statement_timeout` nor the client's query timeout, and restores
    /// both afterwards: for maintenance whose statements may rightly wait long (a migration waiting for
    /// another, `DETACH PARTITION CONCURRENTLY` waiting for old transactions, `ANALYZE` of a large table).
    public func withoutTimeouts<T>(_ body: () throws -> T) throws -> T {
        let previous = try query("SHOW statement_timeout").string(0, 0) ?? "0"
        try execute(unsafeSQL: "SET statement_timeout = 0")
        defer { try? execute(unsafeSQL: "SET statement_timeout = '\(previous)'") }
        return try withQueryTimeout(nil, body)
    }

    /// Whether the connection is usable as far as the client can tell without a round trip: reads what the
    /// server may have sent (e.g. a shutdown notice) and reports false once the socket is closed.
    public var isAlive: Bool {
        guard !isAbandoned, PQstatus(handle) == CONNECTION_OK else { return false }
        guard PQconsumeInput(handle) == 1 else { return false }
        return PQstatus(handle) == CONNECTION_OK
    }

    /// The connection's socket descriptor, -1 once closed; for checking its TCP options.
    var socketDescriptor: Int32 { PQsocket(handle) }

    /// Whether the session is outside any transaction, so the next user starts from a clean state.
    public var isIdle: Bool {
        PQtransactionStatus(handle) == PQTRANS_IDLE
    }

    /// Runs `query` with its bindings as text parameters and returns its rows.
    @discardableResult
    public func query(_ query: PostgresQuery) throws(PostgresError) -> PostgresRows {
        try startExchange()
        let sent = try withParameters(query.bindings.values) { count, values in
            PQsendQueryParams(handle, query.sql, count, nil, values, nil, nil, 0)
        }
        return try check(try finishExchange(sent: sent))
    }

    /// Executes `statement` with its bindings and returns every row decoded, preparing it on this connection
    /// first if this is its first use here.
    @discardableResult
    public func execute<Statement: PostgresStatement>(
        _ statement: Statement
    ) throws(PostgresError) -> [Statement.Row] {
        try statement.decodeRows(try execute(statement.prepared, statement.makeBindings()))
    }

    /// Executes `statement` and returns its first row decoded, nil when it returned none.
    public func executeFirst<Statement: PostgresStatement>(
        _ statement: Statement
    ) throws(PostgresError) -> Statement.Row? {
        try statement.decodeFirstRow(try execute(statement.prepared, statement.makeBindings()))
    }

    /// Executes `statement` with `bindings` and returns the raw rows.
    func execute(_ statement: PreparedStatement, _ bindings: PostgresBindings) throws(PostgresError) -> PostgresRows {
        let start = ContinuousClock.now
        defer { statementTimers?.record(statement.name, since: start, context: traceContext) }
        try prepareIfNeeded(statement)
        try startExchange()
        let sent = try withParameters(bindings.values) { count, values in
            PQsendQueryPrepared(handle, statement.name, count, values, nil, nil, statement.resultFormat.rawValue)
        }
        return try check(try finishExchange(sent: sent))
    }

    /// Prepares `statement` on this connection unless that happened before.
    func prepareIfNeeded(_ statement: PreparedStatement) throws(PostgresError) {
        guard !preparedNames.contains(statement.name) else { return }
        try startExchange()
        try check(try finishExchange(sent: PQsendPrepare(handle, statement.name, statement.sql, 0, nil)))
        preparedNames.insert(statement.name)
    }

    /// Runs trusted SQL text without parameters; several statements separated by `;` are allowed.
    /// Never pass input here: use `query(_:)` or a prepared statement.
    public func execute(unsafeSQL sql: String) throws(PostgresError) {
        try startExchange()
        try check(try finishExchange(sent: PQsendQuery(handle, sql)))
    }

    /// Runs `body` inside `BEGIN` ... `COMMIT`, rolling back when it throws. Returns only after the commit
    /// succeeded, so a returned value means the writes are as durable as the server's `synchronous_commit`
    /// and synchronous standbys promise (see `commit()`).
    public func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try execute(unsafeSQL: "BEGIN")
        let value: T
        do {
            value = try body(self)
        } catch {
            try? execute(unsafeSQL: "ROLLBACK")
            throw error
        }
        do {
            try commit()
        } catch {
            if !isIdle { try? execute(unsafeSQL: "ROLLBACK") }
            throw error
        }
        return value
    }

    /// Commits the open transaction and returns once the server reports it durable. A `COMMIT` waiting for a
    /// synchronous standby is never canceled, neither by the session's `statement_timeout` nor by the client:
    /// PostgreSQL would keep a canceled commit locally without the standby's copy, and a failover would lose
    /// it. Past `queryTimeout` the connection is dropped instead and the error (kind `timedOut`) leaves the
    /// outcome unknown; the server goes on waiting, and the transaction stays invisible until the standby
    /// confirms it.
    func commit() throws(PostgresError) {
        cancelsAbandonedStatements = false
        let start = ContinuousClock.now
        defer {
            cancelsAbandonedStatements = true
            statementTimers?.record("commit", since: start, context: traceContext)
        }
        // One message: the timeout is armed per statement, so COMMIT starts with the SET LOCAL value.
        try execute(unsafeSQL: "SET LOCAL statement_timeout = 0; COMMIT")
    }

    /// The server's WAL insert position: at or past the end of everything written so far, this session's last
    /// commit included. (The write position, `pg_current_wal_lsn()`, can still be before a commit that did not
    /// wait for its flush, `synchronous_commit = off`.)
    public func walInsertPosition() throws(PostgresError) -> WALPosition {
        let text = try query("SELECT pg_current_wal_insert_lsn()::text").string(0, 0)
        guard let position = text.flatMap(WALPosition.init) else {
            throw PostgresError(kind: .decoding, message: "pg_current_wal_insert_lsn() returned \(text ?? "null")")
        }
        return position
    }

    /// Returns once a standby streaming from this server has flushed everything written here so far, this
    /// session's last commit included (`pg_stat_replication`, which shows positions only to superusers and
    /// members of `pg_read_all_stats`), and returns that position. Throws `PostgresError` of kind `timedOut`
    /// when none has within `queryTimeout` (5 s without one): the commit stands on this server, but no standby
    /// vouches for it.
    @discardableResult
    public func awaitStandbyCopy() throws(PostgresError) -> WALPosition {
        let written = try walInsertPosition()
        let deadline = ContinuousClock.now + (queryTimeout ?? .seconds(5))
        let check: PostgresQuery =
            "SELECT EXISTS (SELECT 1 FROM pg_stat_replication WHERE flush_lsn >= \(written.description)::pg_lsn)"
        while try query(check).bool(0, 0) != true {
            guard ContinuousClock.now < deadline else {
                throw PostgresError(
                    kind: .timedOut, message: "no standby flushed the commit in time; its outcome is unknown")
            }
            usleep(2000)
        }
        return written
    }

    /// Streams rows into `COPY ... FROM STDIN` (text format): `produce` fills the buffer it is given (empty
    /// on each call) and returns false when it has written its last chunk. Returns the rows the server stored.
    /// When `produce` throws, the copy is aborted and nothing is stored. Not bounded by `queryTimeout`: the
    /// connection is in blocking mode while it copies.
    public func copyIn(unsafeSQL sql: String, produce: (inout [UInt8]) throws -> Bool) throws -> Int {
        guard !isAbandoned, PQsetnonblocking(handle, 0) == 0 else {
            throw PostgresError(kind: .connectionLost, message: PostgresError.libpqMessage(handle))
        }
        defer { _ = PQsetnonblocking(handle, 1) }
        try check(PQexec(handle, sql), accepted: [PGRES_COPY_IN])
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        do {
            var more = true
            while more {
                buffer.removeAll(keepingCapacity: true)
                more = try produce(&buffer)
                guard !buffer.isEmpty else { continue }
                let sent = buffer.withUnsafeBytes { bytes in
                    PQputCopyData(handle, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
                }
                guard sent == 1 else {
                    throw PostgresError(kind: .connectionLost, message: PostgresError.libpqMessage(handle))
                }
            }
        } catch {
            _ = PQputCopyEnd(handle, "aborted by client")
            drainResults()
            throw error
        }
        guard PQputCopyEnd(handle, nil) == 1 else {
            throw PostgresError(kind: .connectionLost, message: PostgresError.libpqMessage(handle))
        }
        let rows = try check(PQgetResult(handle))
        drainResults()
        return rows.affectedRows
    }

    private func drainResults() {
        while let result = PQgetResult(handle) { PQclear(result) }
    }

    @discardableResult
    private func check(
        _ result: OpaquePointer?, accepted: [ExecStatusType] = [PGRES_COMMAND_OK, PGRES_TUPLES_OK]
    ) throws(PostgresError) -> PostgresRows {
        let rows = PostgresRows(owning: result)
        if let error = PostgresError.check(result: result, connection: handle, accepted: accepted) {
            throw error
        }
        return rows
    }

    // Lays the parameters out as NUL-terminated strings in one buffer; the pointers live only inside `body`.
    func withParameters<Result>(
        _ parameters: [String?], _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>?) -> Result
    ) throws(PostgresError) -> Result {
        var storage: [CChar] = []
        var offsets: [Int?] = []
        offsets.reserveCapacity(parameters.count)
        for parameter in parameters {
            guard let parameter else {
                offsets.append(nil)
                continue
            }
            offsets.append(storage.count)
            for byte in parameter.utf8 {
                guard byte != 0 else {
                    throw PostgresError(kind: .invalidParameter, message: "a parameter contains a NUL byte")
                }
                storage.append(CChar(bitPattern: byte))
            }
            storage.append(0)
        }
        return storage.withUnsafeBufferPointer { buffer in
            let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in
                guard let offset, let base = buffer.baseAddress else { return nil }
                return base + offset
            }
            return pointers.withUnsafeBufferPointer { body(Int32(parameters.count), $0.baseAddress) }
        }
    }
}
