internal import CLibPQ

extension PostgresError {
    /// The one place that turns a libpq outcome into a typed error: nil when `result` has one of the
    /// `accepted` statuses, otherwise the error with the server's SQLSTATE, or `connectionLost` when the
    /// connection went bad. Does not take ownership of `result`.
    static func check(
        result: OpaquePointer?, connection: OpaquePointer, accepted: [ExecStatusType]
    ) -> PostgresError? {
        guard let result else {
            return PostgresError(
                kind: PQstatus(connection) == CONNECTION_BAD ? .connectionLost : .server,
                message: libpqMessage(connection)
            )
        }
        let status = PQresultStatus(result)
        if accepted.contains(status) { return nil }
        let sqlState = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
        let message = primary ?? libpqMessage(connection)
        let constraint = PQresultErrorField(result, Int32(UInt8(ascii: "n"))).map { String(cString: $0) }
        let lost = PQstatus(connection) == CONNECTION_BAD
        if lost && sqlState == nil {
            return PostgresError(kind: .connectionLost, message: message)
        }
        return PostgresError(
            kind: lost ? .connectionLost : .server, sqlState: sqlState, message: message, constraint: constraint)
    }

    /// The connection's last error text, trimmed.
    static func libpqMessage(_ connection: OpaquePointer?) -> String {
        guard let connection, let text = PQerrorMessage(connection) else { return "unknown libpq error" }
        let message = String(cString: text)
        let trimmed = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        return trimmed.isEmpty ? "unknown libpq error" : trimmed
    }
}
