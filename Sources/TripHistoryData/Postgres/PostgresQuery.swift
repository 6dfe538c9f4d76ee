/// SQL whose interpolated values become `$n` text parameters rather than SQL text, so input can never
/// change the statement. Raw SQL fragments must be spelled `\(unsafeSQL: ...)` so they stand out.
public struct PostgresQuery: Hashable, Sendable, ExpressibleByStringInterpolation {
    public private(set) var sql: String
    public private(set) var parameters: [String?]

    public init(stringLiteral value: String) {
        self.sql = value
        self.parameters = []
    }

    public init(stringInterpolation: StringInterpolation) {
        self.sql = stringInterpolation.sql
        self.parameters = stringInterpolation.parameters
    }

    /// Builds the `$n` text and its bind array while the literal is read.
    public struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var parameters: [String?] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + interpolationCount * 3)
            parameters.reserveCapacity(interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        /// Binds a text value (NULL when nil).
        public mutating func appendInterpolation(_ value: String?) {
            parameters.append(value)
            sql += "$\(parameters.count)"
        }

        /// Binds an integer.
        public mutating func appendInterpolation(_ value: Int64) {
            appendInterpolation(String(value))
        }

        /// Binds an integer.
        public mutating func appendInterpolation(_ value: Int) {
            appendInterpolation(String(value))
        }

        /// Pastes trusted SQL text verbatim; never pass input here.
        public mutating func appendInterpolation(unsafeSQL fragment: String) {
            sql += fragment
        }
    }
}
