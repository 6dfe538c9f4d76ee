internal import CLibPQ

/// One open libpq connection in blocking mode, the single owner of its `PGconn` (closed on deinit).
///
/// Every method blocks the calling thread on network I/O, so call them only from a thread that may block
/// (the pool runs them on its `NIOThreadPool`). A connection is used by one thread at a time.
// @unchecked Sendable: the pool hands a connection to exactly one thread-pool job at a time, so the
// mutable handle is never touched concurrently even though the reference crosses threads.
public final class PostgresConnection: @unchecked Sendable {
    /// Internal so the notification extension can reach the socket; it never leaves the module.
    let handle: OpaquePointer
    private var preparedNames: Set<String> = []

    /// Opens a connection. `connectionString` is a `postgresql://` URI or a `key=value` conninfo string;
    /// its own settings win over the defaults given here. The session is set to UTC with the given
    /// statement timeout. `settings` are further libpq keywords (e.g. TCP keepalives), also overridable by the
    /// connection string. Throws `PostgresError` of kind `connectionFailed` when the server cannot be reached.
    public init(
        connectionString: String, connectTimeoutSeconds: Int = 3, statementTimeoutMilliseconds: Int = 5000,
        applicationName: String = "trip-history", settings: [(keyword: String, value: String)] = []
    ) throws(PostgresError) {
        // Later keywords override earlier ones, so the connection string (last) can override the defaults.
        let keywords = ["connect_timeout", "application_name"] + settings.map(\.keyword) + ["dbname"]
        let values =
            [String(max(connectTimeoutSeconds, 1)), applicationName] + settings.map(\.value) + [connectionString]
        let connection = Self.connect(keywords: keywords, values: values)
        guard let connection else {
            throw PostgresError(kind: .connectionFailed, message: "out of memory while connecting")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = PostgresError.libpqMessage(connection)
            PQfinish(connection)
            throw PostgresError(kind: .connectionFailed, message: message)
        }
        self.handle = connection
        do {
            try execute(
                unsafeSQL: "SET TIME ZONE 'UTC'; SET statement_timeout = \(max(statementTimeoutMilliseconds, 0))")
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

    /// Whether the connection is usable as far as the client can tell without a round trip: reads what the
    /// server may have sent (e.g. a shutdown notice) and reports false once the socket is closed.
    public var isAlive: Bool {
        guard PQstatus(handle) == CONNECTION_OK else { return false }
        guard PQconsumeInput(handle) == 1 else { return false }
        return PQstatus(handle) == CONNECTION_OK
    }

    /// Whether the session is outside any transaction, so the next user starts from a clean state.
    public var isIdle: Bool {
        PQtransactionStatus(handle) == PQTRANS_IDLE
    }

    /// Runs `query` with its bindings as text parameters and returns its rows.
    @discardableResult
    public func query(_ query: PostgresQuery) throws(PostgresError) -> PostgresRows {
        let result = try withParameters(query.bindings.values) { count, values in
            PQexecParams(handle, query.sql, count, nil, values, nil, nil, 0)
        }
        return try check(result)
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
        try prepareIfNeeded(statement)
        let result = try withParameters(bindings.values) { count, values in
            PQexecPrepared(handle, statement.name, count, values, nil, nil, statement.resultFormat.rawValue)
        }
        return try check(result)
    }

    /// Prepares `statement` on this connection unless that happened before.
    func prepareIfNeeded(_ statement: PreparedStatement) throws(PostgresError) {
        guard !preparedNames.contains(statement.name) else { return }
        try check(PQprepare(handle, statement.name, statement.sql, 0, nil))
        preparedNames.insert(statement.name)
    }

    /// Runs trusted SQL text without parameters; several statements separated by `;` are allowed.
    /// Never pass input here: use `query(_:)` or a prepared statement.
    public func execute(unsafeSQL sql: String) throws(PostgresError) {
        try check(PQexec(handle, sql))
    }

    /// Runs `body` inside `BEGIN` ... `COMMIT`, rolling back when it throws. Returns only after the commit
    /// succeeded, so a returned value means the writes are durable.
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
            try execute(unsafeSQL: "COMMIT")
        } catch {
            if !isIdle { try? execute(unsafeSQL: "ROLLBACK") }
            throw error
        }
        return value
    }

    /// Streams rows into `COPY ... FROM STDIN` (text format): `produce` fills the buffer it is given (empty
    /// on each call) and returns false when it has written its last chunk. Returns the rows the server stored.
    /// When `produce` throws, the copy is aborted and nothing is stored.
    public func copyIn(unsafeSQL sql: String, produce: (inout [UInt8]) throws -> Bool) throws -> Int {
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
