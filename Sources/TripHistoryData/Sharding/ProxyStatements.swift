import Foundation
import TripHistoryDomain

/// A statement of the repositories run as a function of its name (scripts/shards/): on the proxy, a fan-out whose
/// SQL (`AnalystFanOut`) merges what every partition's function of that name answered into the statement's
/// rows; on a partition's standby, the statement's `_replayed` function (`ShardStandbyReads`). Its rows are the
/// statement's, so the statement decodes them.
struct ProxyCall<Statement: PostgresStatement>: PostgresStatement {
    let statement: Statement
    let prepared: PreparedStatement
    private let bindings: PostgresBindings

    /// `sql` run with `arguments`, prepared as `proxy_NAME`, its rows decoded as `statement`'s.
    init(_ statement: Statement, name: String, sql: String, arguments: PostgresBindings) {
        self.statement = statement
        bindings = arguments
        prepared = PreparedStatement(name: "proxy_\(name)", sql: sql, resultFormat: statement.prepared.resultFormat)
    }

    func makeBindings() -> PostgresBindings { bindings }

    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Statement.Row {
        try statement.decodeRow(rows, row: row)
    }
}

/// `$1, $2, ..., $count`: a call's arguments.
func placeholders(_ count: Int) -> String {
    (0..<count).map { "$\($0 + 1)" }.joined(separator: ", ")
}
