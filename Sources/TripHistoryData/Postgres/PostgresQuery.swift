/// SQL whose interpolated values become `$n` parameters rather than SQL text, so input can never change the
/// statement: each value is bound where its placeholder is written. Raw SQL fragments must be spelled
/// `\(unsafeSQL: ...)` so they stand out.
public struct PostgresQuery: Hashable, Sendable, ExpressibleByStringInterpolation {
    /// The text with `$1...$n` placeholders.
    public private(set) var sql: String
    /// The values of the placeholders, in order.
    public private(set) var bindings: PostgresBindings

    /// SQL without parameters.
    public init(stringLiteral value: String) {
        self.sql = value
        self.bindings = PostgresBindings()
    }

    /// The SQL and bindings an interpolated literal built.
    public init(stringInterpolation: StringInterpolation) {
        self.sql = stringInterpolation.sql
        self.bindings = stringInterpolation.bindings
    }

    /// Builds the `$n` text and its bindings while the literal is read.
    public struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var bindings: PostgresBindings

        /// Room for the literal's text and one binding per interpolation.
        public init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + interpolationCount * 3)
            bindings = PostgresBindings(capacity: interpolationCount)
        }

        /// Appends SQL text written in the literal.
        public mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        /// Binds `value` to the next placeholder.
        public mutating func appendInterpolation(_ value: some PostgresBindable) {
            bindings.append(value)
            sql += "$\(bindings.count)"
        }

        /// Binds `value`, NULL when nil.
        public mutating func appendInterpolation(_ value: (some PostgresBindable)?) {
            bindings.append(value)
            sql += "$\(bindings.count)"
        }

        /// Binds `elements` as one array value.
        public mutating func appendInterpolation(_ elements: [some PostgresBindable]) {
            appendInterpolation(PostgresArray(elements))
        }

        /// Pastes trusted SQL text verbatim; never pass input here.
        public mutating func appendInterpolation(unsafeSQL fragment: String) {
            sql += fragment
        }
    }
}
