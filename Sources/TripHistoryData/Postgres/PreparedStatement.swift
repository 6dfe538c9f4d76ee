/// A statement with `$n` placeholders that a connection prepares once, on its first use, and then
/// executes by name. The SQL is fixed at compile time by its owner; values only ever travel as parameters.
public struct PreparedStatement: Hashable, Sendable {
    /// Unique per statement text within the process; PostgreSQL keys prepared statements by name.
    public let name: String
    public let sql: String

    public init(name: String, sql: String) {
        self.name = name
        self.sql = sql
    }
}
