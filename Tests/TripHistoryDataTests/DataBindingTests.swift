import Foundation
import Testing
import TripHistoryData
import TripHistoryDataTestSupport
import TripHistoryDomain

/// Every kind of binding goes to a real server and comes back exactly: integers at their limits, doubles bit
/// for bit, text, timestamps and their infinities, booleans, NULL, and arrays whose elements hold the
/// characters the array syntax gives meaning to.
@Suite struct DataBindingTests {
    /// `SELECT $1::cast` in binary form, and whether `$1` was NULL, read by `read`.
    private struct Echo<Row: Sendable>: PostgresStatement {
        let cast: String
        let bindings: PostgresBindings
        let read: @Sendable (PostgresRows, Int) throws -> Row

        var prepared: PreparedStatement {
            PreparedStatement(
                name: "data_test_echo_\(cast)", sql: "SELECT $1::\(cast), $1::\(cast) IS NULL", resultFormat: .binary)
        }

        func makeBindings() -> PostgresBindings { bindings }

        func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Row {
            try asPostgresError { try read(rows, row) }
        }
    }

    /// The elements of `$1::text[]` in order (nil for NULL elements) and its cardinality.
    private struct ArrayElements: PostgresPreparedStatement {
        static let name = "data_test_array_elements"
        static let sql = """
            SELECT cardinality($1::text[]), x.element, x.position
            FROM (SELECT 1) one LEFT JOIN unnest($1::text[]) WITH ORDINALITY AS x(element, position) ON true
            ORDER BY x.position
            """
        static let resultFormat = PreparedStatement.ResultFormat.binary

        let elements: PostgresArray

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(elements)
            return bindings
        }

        func decodeRow(
            _ rows: PostgresRows, row: Int
        ) throws(PostgresError) -> (cardinality: Int64?, element: String?, position: Int64?) {
            (try rows.int64(row, 0), try rows.string(row, 1), try rows.int64(row, 2))
        }
    }

    private static func echo<Row: Sendable>(
        _ cast: String, on pool: PostgresConnectionPool, bind: (inout PostgresBindings) -> Void,
        read: @escaping @Sendable (PostgresRows, Int) throws -> Row
    ) async throws -> Row {
        var bindings = PostgresBindings()
        bind(&bindings)
        #expect(bindings.count == 1)
        let statement = Echo(cast: cast, bindings: bindings, read: read)
        return try #require(try await pool.readFirst(statement))
    }

    /// `value` bound as `cast` and read back as an integer.
    private static func integer(
        _ value: some PostgresBindable, as cast: String = "int8", on pool: PostgresConnectionPool
    ) async throws -> Int64? {
        try await echo(cast, on: pool) {
            $0.append(value)
        } read: { rows, row in
            try rows.int64(row, 0)
        }
    }

    /// `value` bound as text and read back.
    private static func text(_ value: some PostgresBindable, on pool: PostgresConnectionPool) async throws -> String? {
        try await echo("text", on: pool) {
            $0.append(value)
        } read: { rows, row in
            try rows.string(row, 0)
        }
    }

    private static let awkwardStrings: [String] = [
        "", " ", "plain", "a,b", "{braces}", "}", "{", "\"quoted\"", "\"", "back\\slash", "\\", "trailing\\",
        "\\\"", "NULL", "null", "Null", " NULL ", "()", "tab\there", "line\nbreak", "é ü 日本 🚕", "'single'",
        "$1", "a\"b\\c,d{e}f g",
    ]

    @Test func integersRoundTripExactly() async throws {
        try await DataTestDatabase.withPool { pool in
            for value: Int64 in [0, 1, -1, 42, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1] {
                let back = try await Self.integer(value, on: pool)
                #expect(back == value)
            }
            for value in [0, -7, Int.max, Int.min] {
                let back = try await Self.integer(value, on: pool)
                #expect(back == Int64(value))
            }
            for value in [Int32.max, Int32.min, 0] {
                let back = try await Self.integer(value, as: "int4", on: pool)
                #expect(back == Int64(value))
            }
            let rider = try #require(RiderID(9_007_199_254_740_993))
            let riderBack = try await Self.integer(rider, on: pool)
            #expect(riderBack == rider.rawValue)
            let trip = try #require(TripID(Int64.max))
            let tripBack = try await Self.integer(trip, on: pool)
            #expect(tripBack == trip.rawValue)
        }
    }

    @Test func doublesRoundTripBitForBit() async throws {
        let values: [Double] = [
            0, -0.0, 0.1, -0.1, 1.0 / 3.0, .pi, 1e-300, 2.2250738585072014e-308, 1e300,
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 48.856613, -0.000001, .infinity, -.infinity,
        ]
        try await DataTestDatabase.withPool { pool in
            for value in values {
                let back = try await Self.echo("float8", on: pool) {
                    $0.append(value)
                } read: { rows, row in
                    try rows.double(row, 0)
                }
                #expect(back?.bitPattern == value.bitPattern, "\(value) came back as \(String(describing: back))")
            }
            let nan = try await Self.echo("float8", on: pool) {
                $0.append(Double.nan)
            } read: { rows, row in
                try rows.double(row, 0)
            }
            #expect(nan?.isNaN == true)
        }
    }

    @Test func textBooleansAndNullRoundTripExactly() async throws {
        try await DataTestDatabase.withPool { pool in
            for text in Self.awkwardStrings {
                let back = try await Self.echo("text", on: pool) {
                    $0.append(text)
                } read: { rows, row in
                    (try rows.string(row, 0), try rows.bool(row, 1))
                }
                #expect(back.0 == text && back.1 == false, "\(text)")
            }
            for flag in [true, false] {
                let back = try await Self.echo("bool", on: pool) {
                    $0.append(flag)
                } read: { rows, row in
                    try rows.bool(row, 0)
                }
                #expect(back == flag)
            }
            let missing: String? = nil
            let null = try await Self.echo("text", on: pool) {
                $0.append(missing)
            } read: { rows, row in
                (try rows.string(row, 0), try rows.bool(row, 1))
            }
            #expect(null.0 == nil && null.1 == true)
            let present: Int64? = 5
            let some = try await Self.echo("int8", on: pool) {
                $0.append(present)
            } read: { rows, row in
                try rows.int64(row, 0)
            }
            #expect(some == 5)
            let currency = try #require(CurrencyCode("JPY"))
            let code = try await Self.text(currency, on: pool)
            #expect(code == "JPY")
            for status in TripStatus.allCases {
                let text = try await Self.text(status, on: pool)
                #expect(text == status.rawValue)
            }
        }
    }

    @Test func timestampsRoundTripToTheMicrosecondAndInfinitiesCompareBeyondEveryInstant() async throws {
        let micros: [Int64] = [
            0, 1, -1, 1_772_400_000_123_456, 946_684_799_999_999, -62_135_596_800_000_000, 253_402_300_799_999_999,
        ]
        try await DataTestDatabase.withPool { pool in
            for value in micros {
                let back = try await Self.echo("timestamptz", on: pool) {
                    $0.append(PostgresTimestampBound.micros(value))
                } read: { rows, row in
                    try rows.timestampMicros(row, 0)
                }
                #expect(back == value)
                // A Date (a Double of seconds) holds every microsecond only within about 140 years of 1970.
                if value.magnitude < 1 << 52 {
                    let date = Timestamp.date(micros: value)
                    let fromDate = try await Self.echo("timestamptz", on: pool) {
                        $0.append(date)
                    } read: { rows, row in
                        try rows.timestampMicros(row, 0)
                    }
                    #expect(fromDate == value)
                    #expect(PostgresTimestampBound(date) == .micros(value))
                }
            }
            let bounds = try await pool.withConnection { connection in
                try connection.query(
                    """
                    SELECT \(PostgresTimestampBound.negativeInfinity)::timestamptz < '0001-01-01 00:00:00+00'::timestamptz,
                        \(PostgresTimestampBound.infinity)::timestamptz > '294276-01-01 00:00:00+00'::timestamptz,
                        \(PostgresTimestampBound.infinity)::timestamptz::text
                    """
                )
                .row { rows in (try rows.bool(0, 0), try rows.bool(0, 1), try rows.string(0, 2)) }
            }
            #expect(bounds.0 == true && bounds.1 == true && bounds.2 == "infinity")
        }
    }

    @Test func arraysKeepEveryElementExactlyAndInOrder() async throws {
        let withNulls: [String?] = [nil, "NULL", nil, "", "x"]
        let cases: [(PostgresArray, [String?])] = [
            (PostgresArray(Self.awkwardStrings), Self.awkwardStrings.map { Optional($0) }),
            (PostgresArray(withNulls), withNulls),
            (PostgresArray([String]()), []),
            (PostgresArray(["only"]), ["only"]),
            (PostgresArray(TripStatus.allCases), TripStatus.allCases.map { Optional($0.rawValue) }),
            (PostgresArray([Int64.min, 0, Int64.max]), [String(Int64.min), "0", String(Int64.max)]),
        ]
        try await DataTestDatabase.withPool { pool in
            for (array, expected) in cases {
                let rows = try await pool.read(ArrayElements(elements: array))
                let count = try #require(rows.first?.cardinality)
                #expect(count == Int64(expected.count), "\(array.postgresText)")
                let elements = expected.isEmpty ? [] : rows.map(\.element)
                #expect(elements == expected, "\(array.postgresText)")
                #expect(rows.compactMap(\.position) == (expected.isEmpty ? [] : Array(1...Int64(expected.count))))
            }
        }
    }

    @Test func queriesBindArraysWhereTheyAreInterpolated() async throws {
        try await DataTestDatabase.withPool { pool in
            let matched = try await pool.withConnection { connection in
                try connection.query(
                    """
                    SELECT \(Self.awkwardStrings)::text[] = \(PostgresArray(Self.awkwardStrings))::text[],
                        'a,b' = ANY (\(["a,b", "NULL"])::text[]), 'a' = ANY (\(["a,b", "NULL"])::text[]),
                        \(["completed", "canceled"])::text[] = ARRAY['completed', 'canceled']
                    """
                )
                .row { rows in (try rows.bool(0, 0), try rows.bool(0, 1), try rows.bool(0, 2), try rows.bool(0, 3)) }
            }
            #expect(matched.0 == true && matched.1 == true && matched.2 == false && matched.3 == true)
        }
    }

    @Test func arrayTextQuotesEveryElement() {
        #expect(
            PostgresArray(["a", "b c", "d,e", "\"", "\\", "NULL"]).postgresText
                == #"{"a","b c","d,e","\"","\\","NULL"}"#)
        #expect(PostgresArray([nil, "x"] as [String?]).postgresText == #"{NULL,"x"}"#)
        #expect(PostgresArray([String]()).postgresText == "{}")
        #expect(PostgresArray(TripStatus.allCases).postgresText == #"{"completed","canceled"}"#)
    }
}

extension PostgresRows {
    /// What `read` makes of these rows; keeps tests' decoding in one expression.
    fileprivate func row<T>(_ read: (PostgresRows) throws -> T) rethrows -> T { try read(self) }
}
