/// A failure reported by libpq or the PostgreSQL server, with the server's SQLSTATE when there is one.
/// The message is the server's or libpq's text; it never contains the SQL that was sent.
public struct PostgresError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the failure came from.
    public enum Kind: Hashable, Sendable {
        /// A connection could not be opened (refused, unreachable, authentication, bad connection string).
        case connectionFailed
        /// An open connection broke while in use.
        case connectionLost
        /// PostgreSQL sent no answer within the client's query timeout (`PostgresConnection.queryTimeout`):
        /// the statement was canceled and the connection given up.
        case timedOut
        /// The server rejected a statement; `sqlState` says why.
        case server
        /// A parameter cannot be sent (e.g. it contains a NUL byte).
        case invalidParameter
        /// A returned value does not have the expected form.
        case decoding
    }

    public let kind: Kind
    /// The five-character SQLSTATE code (e.g. `57014` for a statement timeout), nil for client-side failures.
    public let sqlState: String?
    public let message: String
    /// The constraint the server names as violated, nil when it names none.
    public let constraint: String?

    public init(kind: Kind, sqlState: String? = nil, message: String, constraint: String? = nil) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.constraint = constraint
    }

    /// True when the connection that produced this error must not be used again: a new one may succeed.
    public var isConnectionProblem: Bool {
        switch kind {
        case .connectionFailed, .connectionLost, .timedOut:
            return true
        case .server, .invalidParameter, .decoding:
            guard let sqlState else { return false }
            // Class 08 is "connection exception"; 57P01-57P03 are the server shutting down or starting up;
            // 25006 (read-only transaction) means the server stopped being the primary under this session
            // (a demoted node), while a new connection through a `target_session_attrs=read-write` URI
            // finds the one that is.
            return sqlState.hasPrefix("08") || sqlState == "57P01" || sqlState == "57P02" || sqlState == "57P03"
                || sqlState == "25006"
        }
    }

    /// True when the statement ran longer than `statement_timeout` and was canceled by the server.
    public var isStatementTimeout: Bool { sqlState == "57014" }

    /// True for serialization failures and deadlocks, which a retry of the whole transaction may fix.
    public var isSerializationFailure: Bool { sqlState == "40001" || sqlState == "40P01" }

    /// True when a unique constraint rejected the row.
    public var isUniqueViolation: Bool { sqlState == "23505" }

    /// True when a row was written to a partitioned table that has no partition for it: a check violation that
    /// names no constraint (a `CHECK` names its own). Not told by the message, which the server translates.
    public var isMissingPartition: Bool { sqlState == "23514" && constraint == nil }

    public var description: String {
        "PostgresError(\(kind), sqlState: \(sqlState ?? "-"), message: \(message))"
    }
}
