internal import CLibPQ

/// The rows of one statement, owning the libpq result until it is released. Read it on the thread that
/// produced it, before the connection is handed back. Values are decoded from PostgreSQL's text format, or
/// from the binary one for statements that ask for it (`PreparedStatement.ResultFormat`).
public final class PostgresRows {
    private let result: OpaquePointer?

    /// Rows and columns of the result; a command without rows has zero of each.
    public let count: Int
    public let columnCount: Int
    /// Rows the command affected (`INSERT`, `UPDATE`, `DELETE`, `COPY`), 0 when not reported.
    public let affectedRows: Int

    init(owning result: OpaquePointer?) {
        self.result = result
        if let result {
            count = Int(PQntuples(result))
            columnCount = Int(PQnfields(result))
            affectedRows = PQcmdTuples(result).flatMap { Int(String(cString: $0)) } ?? 0
        } else {
            count = 0
            columnCount = 0
            affectedRows = 0
        }
    }

    deinit {
        if let result { PQclear(result) }
    }

    /// Whether the value is SQL NULL.
    public func isNull(_ row: Int, _ column: Int) -> Bool {
        guard let result, inBounds(row, column) else { return true }
        return PQgetisnull(result, Int32(row), Int32(column)) == 1
    }

    /// The value as text, nil for NULL. Throws for a binary column of a type that is not a string type.
    public func string(_ row: Int, _ column: Int) throws(PostgresError) -> String? {
        try decode(row, column, "text") { bytes, binaryType in
            if let binaryType, !PostgresBinary.isText(binaryType) { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The value as a 64-bit integer, nil for NULL.
    public func int64(_ row: Int, _ column: Int) throws(PostgresError) -> Int64? {
        try decode(row, column, "an integer", binary: PostgresBinary.int64, text: PostgresText.parseInt64)
    }

    /// The value as a double, nil for NULL. In text, PostgreSQL prints the shortest text that round-trips.
    public func double(_ row: Int, _ column: Int) throws(PostgresError) -> Double? {
        try decode(row, column, "a number", binary: PostgresBinary.double) {
            Double(String(decoding: $0, as: UTF8.self))
        }
    }

    /// The value as a boolean, nil for NULL.
    public func bool(_ row: Int, _ column: Int) throws(PostgresError) -> Bool? {
        try decode(row, column, "a boolean", binary: PostgresBinary.bool) { bytes in
            guard bytes.count == 1 else { return nil }
            return bytes[0] == UInt8(ascii: "t") ? true : bytes[0] == UInt8(ascii: "f") ? false : nil
        }
    }

    /// A `timestamptz` value as exact microseconds since 1970, nil for NULL.
    public func timestampMicros(_ row: Int, _ column: Int) throws(PostgresError) -> Int64? {
        try decode(
            row, column, "a timestamp", binary: PostgresBinary.timestampMicros, text: PostgresTimestamp.parse
        )
    }

    /// The value decoded by `binary` (with the column's type OID) or `text`, whichever form it came in; nil
    /// for NULL. A decoder's nil means the bytes are not `what`, a decoding error.
    private func decode<T>(
        _ row: Int, _ column: Int, _ what: String,
        binary: (UnsafeRawBufferPointer, UInt32) -> T?, text: (UnsafeRawBufferPointer) -> T?
    ) throws(PostgresError) -> T? {
        try decode(row, column, what) { bytes, binaryType in
            if let binaryType { return binary(bytes, binaryType) }
            return text(bytes)
        }
    }

    private func decode<T>(
        _ row: Int, _ column: Int, _ what: String, _ body: (UnsafeRawBufferPointer, UInt32?) -> T?
    ) throws(PostgresError) -> T? {
        try unwrap(withValue(row, column, body), row, column, what)
    }

    private func unwrap<T>(_ parsed: T??, _ row: Int, _ column: Int, _ what: String) throws(PostgresError) -> T? {
        switch parsed {
        case .none: return nil
        case .some(.some(let value)): return value
        case .some(.none):
            throw PostgresError(kind: .decoding, message: "column \(column) of row \(row) is not \(what)")
        }
    }

    private func inBounds(_ row: Int, _ column: Int) -> Bool {
        row >= 0 && row < count && column >= 0 && column < columnCount
    }

    // The buffer is valid only inside `body`: the bytes belong to the libpq result. `body` gets the column's
    // type OID when the value is in binary form, nil when it is text.
    private func withValue<T>(_ row: Int, _ column: Int, _ body: (UnsafeRawBufferPointer, UInt32?) -> T) -> T? {
        guard let result, inBounds(row, column), PQgetisnull(result, Int32(row), Int32(column)) == 0,
            let value = PQgetvalue(result, Int32(row), Int32(column))
        else { return nil }
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        let binaryType = PQfformat(result, Int32(column)) == 1 ? UInt32(PQftype(result, Int32(column))) : nil
        return body(UnsafeRawBufferPointer(start: value, count: length), binaryType)
    }
}
