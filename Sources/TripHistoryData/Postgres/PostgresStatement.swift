/// A statement together with its bindings and its row decoder, in the shape of postgres-nio's
/// `PostgresPreparedStatement`: a value holds the parameters as named stored properties, `makeBindings()`
/// appends them in placeholder order, and `decodeRow` reads one row of its result. Run one with
/// `PostgresConnection.execute(_:)` or `PostgresConnectionPool.read(_:)`.
public protocol PostgresStatement: Sendable {
    /// What one row of the result decodes to (`Void` for statements whose rows are not read).
    associatedtype Row

    /// The name, SQL and result format this value runs with.
    var prepared: PreparedStatement { get }

    /// The values of `$1...$n`, in that order.
    func makeBindings() -> PostgresBindings

    /// Decodes row `row` of this statement's result; a value that is not what the statement selects is a
    /// `PostgresError` of kind `decoding`.
    func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Row
}

/// A statement whose SQL is fixed for its type (postgres-nio's `PostgresPreparedStatement`): the name, the
/// text and the result format are static, the values are the instance's.
public protocol PostgresPreparedStatement: PostgresStatement {
    /// Unique per statement text within the process.
    static var name: String { get }
    /// The statement text with `$1...$n` placeholders.
    static var sql: String { get }
    /// How the rows come back; text unless the type says otherwise.
    static var resultFormat: PreparedStatement.ResultFormat { get }
}

extension PostgresPreparedStatement {
    /// Text, the form every column type has.
    public static var resultFormat: PreparedStatement.ResultFormat { .text }

    /// The type's name, SQL and result format.
    public var prepared: PreparedStatement {
        PreparedStatement(name: Self.name, sql: Self.sql, resultFormat: Self.resultFormat)
    }
}

extension PostgresStatement where Row == Void {
    /// Statements run for their effect read no row.
    public func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) {}
}

extension PostgresStatement {
    /// Every row of `rows`, decoded in order.
    func decodeRows(_ rows: PostgresRows) throws(PostgresError) -> [Row] {
        var decoded: [Row] = []
        decoded.reserveCapacity(rows.count)
        for row in 0..<rows.count {
            decoded.append(try decodeRow(rows, row: row))
        }
        return decoded
    }

    /// The first row of `rows` decoded, nil when there is none; the other rows are not read.
    func decodeFirstRow(_ rows: PostgresRows) throws(PostgresError) -> Row? {
        rows.count == 0 ? nil : try decodeRow(rows, row: 0)
    }
}
