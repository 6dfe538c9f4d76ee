/// A statement with `$n` placeholders that a connection prepares once, on its first use, and then
/// executes by name. The SQL is fixed at compile time by its owner; values only ever travel as parameters.
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
    public let sql: String
    public let resultFormat: ResultFormat

    public init(name: String, sql: String, resultFormat: ResultFormat = .text) {
        self.name = name
        self.sql = sql
        self.resultFormat = resultFormat
    }
}
