/// The name, SQL and result format of a statement with `$n` placeholders, which a connection prepares once,
/// on its first use, and then executes by name. Statements reach a connection as `PostgresStatement`
/// values, which carry this together with their bindings and row decoder; values only ever travel as
/// parameters.
public struct PreparedStatement: Hashable, Sendable {
    /// How PostgreSQL sends a statement's column values back.
    public enum ResultFormat: Int32, Hashable, Sendable {
        /// Each type's text output, which every column type has.
        case text = 0
        /// Each type's binary send form. Cheaper on both ends for hot statements (no `float8out` or
        /// `timestamptz_out` on the server, no number parsing here), and independent of the session's
        /// `DateStyle` and `TimeZone`; `PostgresRows` decodes the types it knows and rejects the others.
        case binary = 1
    }

    /// Unique per statement text within the process; PostgreSQL keys prepared statements by name.
    public let name: String
    /// The statement text with `$1...$n` placeholders.
    public let sql: String
    /// How the statement's rows come back.
    public let resultFormat: ResultFormat

    /// A statement named `name`; one name must always go with the same `sql`.
    public init(name: String, sql: String, resultFormat: ResultFormat = .text) {
        self.name = name
        self.sql = sql
        self.resultFormat = resultFormat
    }
}
