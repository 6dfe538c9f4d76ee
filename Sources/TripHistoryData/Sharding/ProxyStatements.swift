import Foundation
import TripHistoryDomain

/// A statement of the repositories run through the sharded topology's proxy: the proxy's function of the
/// statement's name (`scripts/shards/proxy.sql`), called with the statement's own parameters, which PL/Proxy
/// runs on the rider's partition as that partition's function of the same name and text. Its rows are the
/// statement's, so the statement decodes them. A fan-out (`AnalystFanOut`) gives the SQL that merges, on the
/// proxy, what the partitions' function answered into the statement's rows.
struct ProxyCall<Statement: PostgresStatement>: PostgresStatement {
    let statement: Statement
    let prepared: PreparedStatement
    private let bindings: PostgresBindings

    init(_ statement: Statement) {
        let name = statement.prepared.name
        let bindings = statement.makeBindings()
        self.init(
            statement, name: name, sql: "SELECT * FROM \(name)(\(placeholders(bindings.count)))", arguments: bindings)
    }

    /// `sql` run on the proxy with `arguments`, prepared as `proxy_NAME`, its rows decoded as `statement`'s.
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
