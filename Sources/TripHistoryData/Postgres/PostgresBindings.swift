public import Foundation
public import TripHistoryDomain

/// The values of a statement's `$1...$n` placeholders, in placeholder order, each in the text form
/// PostgreSQL's input function for the parameter's type reads back to exactly that value (NULL for nil).
/// Statements build theirs in `makeBindings()`, right under their SQL, so a value cannot drift from its
/// placeholder.
public struct PostgresBindings: Hashable, Sendable {
    /// The text of each parameter, nil for NULL; what libpq sends.
    public private(set) var values: [String?]

    /// Empty bindings with room for `capacity` values.
    public init(capacity: Int = 0) {
        values = []
        values.reserveCapacity(capacity)
    }

    /// The number of values bound so far; the next one binds `$(count + 1)`.
    public var count: Int { values.count }

    /// Binds `value` to the next placeholder.
    public mutating func append(_ value: some PostgresBindable) {
        values.append(value.postgresText)
    }

    /// Binds `value`, or NULL when it is nil, to the next placeholder.
    public mutating func append(_ value: (some PostgresBindable)?) {
        values.append(value?.postgresText)
    }

    /// Binds `elements` as one array value (cast it in SQL, e.g. `$6::text[]`).
    public mutating func append(_ elements: [some PostgresBindable]) {
        append(PostgresArray(elements))
    }

    /// Binds `elements` as one array value whose nil elements are NULL.
    public mutating func append(_ elements: [(some PostgresBindable)?]) {
        append(PostgresArray(elements))
    }
}

/// A value that can be bound to a placeholder as text.
public protocol PostgresBindable: Sendable {
    /// The text PostgreSQL's input function for the parameter's type parses back to exactly this value.
    var postgresText: String { get }
}

/// A one-dimensional array value in PostgreSQL's text form: every element double-quoted, with `"` and `\`
/// escaped, so commas, braces, blanks and the word NULL inside an element stay that element's text; nil
/// elements are SQL NULL. Encoded once at initialization, so a `static let` of one costs nothing per use.
public struct PostgresArray: PostgresBindable, Hashable {
    /// The array literal, e.g. `{"completed","canceled"}`.
    public let postgresText: String

    /// The array of `elements`.
    public init(_ elements: [some PostgresBindable]) {
        self.init(texts: elements.map { Optional($0.postgresText) })
    }

    /// The array of `elements`, nil elements being NULL.
    public init(_ elements: [(some PostgresBindable)?]) {
        self.init(texts: elements.map { $0?.postgresText })
    }

    private init(texts: [String?]) {
        var text = "{"
        for (index, element) in texts.enumerated() {
            if index > 0 { text += "," }
            guard let element else {
                text += "NULL"
                continue
            }
            text += "\""
            for character in element.unicodeScalars {
                if character == "\"" || character == "\\" { text += "\\" }
                text.unicodeScalars.append(character)
            }
            text += "\""
        }
        text += "}"
        postgresText = text
    }
}

/// A `timestamptz` parameter that may be open-ended: exact microseconds since 1970, or one of PostgreSQL's
/// infinities, which compare below or above every instant (for bounds and keys that are not set).
public enum PostgresTimestampBound: PostgresBindable, Hashable {
    /// `-infinity`: below every instant.
    case negativeInfinity
    /// Exactly this many microseconds since 1970-01-01T00:00:00Z.
    case micros(Int64)
    /// `infinity`: above every instant.
    case infinity

    /// The instant of `date`, cut to microseconds as the store keeps it.
    public init(_ date: Date) {
        self = .micros(Timestamp.micros(date))
    }

    /// `-infinity`, the instant in UTC, or `infinity`.
    public var postgresText: String {
        switch self {
        case .negativeInfinity: "-infinity"
        case .micros(let micros): PostgresTimestamp.format(micros: micros)
        case .infinity: "infinity"
        }
    }
}

extension String: PostgresBindable {
    /// The text itself.
    public var postgresText: String { self }
}

extension Int64: PostgresBindable {
    /// The decimal digits.
    public var postgresText: String { String(self) }
}

extension Int: PostgresBindable {
    /// The decimal digits.
    public var postgresText: String { String(self) }
}

extension Int32: PostgresBindable {
    /// The decimal digits.
    public var postgresText: String { String(self) }
}

extension Bool: PostgresBindable {
    /// `true` or `false`.
    public var postgresText: String { self ? "true" : "false" }
}

extension Double: PostgresBindable {
    /// Swift's shortest text that reads back to the same bits; the special values in PostgreSQL's spelling.
    public var postgresText: String {
        if isNaN { return "NaN" }
        if isInfinite { return self < 0 ? "-Infinity" : "Infinity" }
        return "\(self)"
    }
}

extension Date: PostgresBindable {
    /// The instant cut to microseconds, as a `timestamptz` in UTC.
    public var postgresText: String { PostgresTimestamp.format(micros: Timestamp.micros(self)) }
}

extension TripStatus: PostgresBindable {
    /// The status as stored, e.g. `completed`.
    public var postgresText: String { rawValue }
}

extension RiderID: PostgresBindable {
    /// The id's decimal digits.
    public var postgresText: String { String(rawValue) }
}

extension TripID: PostgresBindable {
    /// The id's decimal digits.
    public var postgresText: String { String(rawValue) }
}

extension CurrencyCode: PostgresBindable {
    /// The ISO 4217 code, e.g. `EUR`.
    public var postgresText: String { code }
}
