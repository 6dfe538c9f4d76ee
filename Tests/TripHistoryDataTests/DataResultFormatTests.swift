import Foundation
import Testing
import TripHistoryData
import TripHistoryDataTestSupport

/// Rows asked for in binary form decode to exactly what the same rows decode to as text, and a binary value
/// of a type its accessor does not know is a decoding error, never a misread value.
@Suite struct DataResultFormatTests {
    private static let micros: [Int64] = [
        0, 1, -1, 946_684_800_000_000, 946_684_799_999_999, 1_767_225_600_123_456, -62_135_596_800_000_000,
        253_402_300_799_999_999,
    ]

    /// One row of every type the accessors read, from five bound values.
    private struct TypedValues: PostgresStatement {
        typealias Row = (
            Int64?, Int64?, Int64?, Double?, Bool?, String?, String?, String?, Int64?, Int64?, String?, String?,
            Bool, Bool
        )
        let format: PreparedStatement.ResultFormat
        let number: String
        let double: String
        let flag: String
        let text: String
        let timestamp: String

        var prepared: PreparedStatement {
            PreparedStatement(
                name: "data_test_typed_values_\(format)",
                sql: """
                    SELECT $1::int8, $1::int4, $1::int2, $2::float8, $3::bool, $4::text, $4::varchar, $4::char(6),
                        $5::timestamptz, NULL::int8, NULL::text, 'infinity'::timestamptz, '-infinity'::timestamptz,
                        'trips'::name
                    """,
                resultFormat: format
            )
        }

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(number)
            bindings.append(double)
            bindings.append(flag)
            bindings.append(text)
            bindings.append(timestamp)
            return bindings
        }

        func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Row {
            (
                try rows.int64(row, 0), try rows.int64(row, 1), try rows.int64(row, 2), try rows.double(row, 3),
                try rows.bool(row, 4), try rows.string(row, 5), try rows.string(row, 6), try rows.string(row, 7),
                try rows.timestampMicros(row, 8), try rows.int64(row, 9), try rows.string(row, 10),
                try rows.string(row, 13), rows.isNull(row, 9), rows.isNull(row, 0)
            )
        }
    }

    /// Reads one column of the same row with the accessor `read` chooses.
    private struct ReadColumn: PostgresStatement {
        typealias Row = Void
        let format: PreparedStatement.ResultFormat
        let read: @Sendable (PostgresRows, Int) throws -> Void

        var prepared: PreparedStatement {
            TypedValues(format: format, number: "", double: "", flag: "", text: "", timestamp: "").prepared
        }

        func makeBindings() -> PostgresBindings {
            TypedValues(
                format: format, number: "1", double: "1", flag: "true", text: "a", timestamp: "2026-01-01 00:00:00+00"
            )
            .makeBindings()
        }

        func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) {
            try asPostgresError { try read(rows, row) }
        }
    }

    @Test(arguments: [PreparedStatement.ResultFormat.text, .binary])
    func everyAccessorReadsTheSameValueInBothFormats(format: PreparedStatement.ResultFormat) async throws {
        try await DataTestDatabase.withPool { pool in
            for (index, micros) in Self.micros.enumerated() {
                let number = index.isMultiple(of: 2) ? "-12345" : "32767"
                let flag = index.isMultiple(of: 2) ? "true" : "false"
                let text = "é\"\\ " + String(index)
                let timestamp = PostgresTimestamp.format(micros: micros)
                let statement = TypedValues(
                    format: format, number: number, double: "-0.1", flag: flag, text: text, timestamp: timestamp)
                let values = try #require(try await pool.withConnection { try $0.executeFirst(statement) })
                #expect(values.0 == Int64(number) && values.1 == Int64(number) && values.2 == Int64(number))
                #expect(values.3 == -0.1)
                #expect(values.4 == index.isMultiple(of: 2))
                #expect(values.5 == text && values.6 == text, "\(format)")
                // char(n) pads with spaces, in both forms.
                #expect(values.7 == text.padding(toLength: 6, withPad: " ", startingAt: 0), "\(format)")
                #expect(values.8 == micros, "\(format) \(timestamp)")
                #expect(values.9 == nil && values.10 == nil && values.12 && !values.13)
                #expect(values.11 == "trips")
            }
            for infiniteColumn in [11, 12] {
                await #expect {
                    let read = ReadColumn(format: format) { rows, row in
                        _ = try rows.timestampMicros(row, infiniteColumn)
                    }
                    try await pool.withConnection { try $0.execute(read) }
                } throws: { error in (error as? PostgresError)?.kind == .decoding }
            }
        }
    }

    /// A row of types the accessors only partly know, read by `read`.
    private struct Mismatched<Row>: PostgresPreparedStatement {
        static var name: String { "data_test_mismatched_binary" }
        static var sql: String {
            "SELECT 7::int8, 'seven'::text, 7.5::numeric, DATE '2026-01-01', 7.5::real, TIMESTAMP '2026-01-01 00:00'"
        }
        static var resultFormat: PreparedStatement.ResultFormat { .binary }

        let read: @Sendable (PostgresRows, Int) throws -> Row

        func makeBindings() -> PostgresBindings { PostgresBindings() }

        func decodeRow(_ rows: PostgresRows, row: Int) throws(PostgresError) -> Row {
            try asPostgresError { try read(rows, row) }
        }
    }

    @Test func binaryValuesOfAnotherTypeAreDecodingErrors() async throws {
        try await DataTestDatabase.withPool { pool in
            typealias Read = @Sendable (PostgresRows, Int) throws -> Void
            let reads: [Read] = [
                { rows, row in _ = try rows.string(row, 0) },
                { rows, row in _ = try rows.int64(row, 1) },
                { rows, row in _ = try rows.double(row, 1) },
                { rows, row in _ = try rows.double(row, 2) },
                { rows, row in _ = try rows.int64(row, 2) },
                { rows, row in _ = try rows.timestampMicros(row, 3) },
                { rows, row in _ = try rows.double(row, 4) },
                { rows, row in _ = try rows.timestampMicros(row, 5) },
                { rows, row in _ = try rows.bool(row, 0) },
                { rows, row in _ = try rows.timestampMicros(row, 0) },
            ]
            for (index, read) in reads.enumerated() {
                await #expect("read \(index)") {
                    try await pool.withConnection { try $0.execute(Mismatched(read: read)) }
                } throws: {
                    error in (error as? PostgresError)?.kind == .decoding
                }
            }
            // The accessors that match still read the row.
            let matching = try await pool.withConnection { connection in
                try connection.executeFirst(
                    Mismatched { rows, row in (try rows.int64(row, 0), try rows.string(row, 1)) })
            }
            #expect(matching?.0 == 7 && matching?.1 == "seven")
        }
    }
}
