import Testing
import TripHistoryData

/// Rows asked for in binary form decode to exactly what the same rows decode to as text, and a binary value
/// of a type its accessor does not know is a decoding error, never a misread value.
@Suite struct DataResultFormatTests {
    private static let micros: [Int64] = [
        0, 1, -1, 946_684_800_000_000, 946_684_799_999_999, 1_767_225_600_123_456, -62_135_596_800_000_000,
        253_402_300_799_999_999,
    ]

    private static func typedValues(_ format: PreparedStatement.ResultFormat) -> PreparedStatement {
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

    @Test(arguments: [PreparedStatement.ResultFormat.text, .binary])
    func everyAccessorReadsTheSameValueInBothFormats(format: PreparedStatement.ResultFormat) async throws {
        try await DataTestDatabase.withPool { pool in
            for (index, micros) in Self.micros.enumerated() {
                let number = index.isMultiple(of: 2) ? "-12345" : "32767"
                let flag = index.isMultiple(of: 2) ? "true" : "false"
                let text = "é\"\\ " + String(index)
                let timestamp = PostgresTimestamp.format(micros: micros)
                let values = try await pool.withConnection { connection in
                    let rows = try connection.execute(
                        Self.typedValues(format), [number, "-0.1", flag, text, timestamp])
                    return (
                        try rows.int64(0, 0), try rows.int64(0, 1), try rows.int64(0, 2), try rows.double(0, 3),
                        try rows.bool(0, 4), try rows.string(0, 5), try rows.string(0, 6), try rows.string(0, 7),
                        try rows.timestampMicros(0, 8), try rows.int64(0, 9), try rows.string(0, 10),
                        try rows.string(0, 13), rows.isNull(0, 9), rows.isNull(0, 0)
                    )
                }
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
                    try await pool.withConnection { connection in
                        try connection.execute(
                            Self.typedValues(format), ["1", "1", "true", "a", "2026-01-01 00:00:00+00"]
                        )
                        .timestampMicros(0, infiniteColumn)
                    }
                } throws: { error in (error as? PostgresError)?.kind == .decoding }
            }
        }
    }

    @Test func binaryValuesOfAnotherTypeAreDecodingErrors() async throws {
        let statement = PreparedStatement(
            name: "data_test_mismatched_binary",
            sql:
                "SELECT 7::int8, 'seven'::text, 7.5::numeric, DATE '2026-01-01', 7.5::real, TIMESTAMP '2026-01-01 00:00'",
            resultFormat: .binary
        )
        try await DataTestDatabase.withPool { pool in
            let reads: [@Sendable (PostgresRows) throws -> Void] = [
                { _ = try $0.string(0, 0) }, { _ = try $0.int64(0, 1) }, { _ = try $0.double(0, 1) },
                { _ = try $0.double(0, 2) }, { _ = try $0.int64(0, 2) }, { _ = try $0.timestampMicros(0, 3) },
                { _ = try $0.double(0, 4) }, { _ = try $0.timestampMicros(0, 5) }, { _ = try $0.bool(0, 0) },
                { _ = try $0.timestampMicros(0, 0) },
            ]
            for (index, read) in reads.enumerated() {
                await #expect("read \(index)") {
                    try await pool.withConnection { try read($0.execute(statement, [])) }
                } throws: {
                    error in (error as? PostgresError)?.kind == .decoding
                }
            }
            // The accessors that match still read the row.
            let matching = try await pool.withConnection { connection in
                let rows = try connection.execute(statement, [])
                return (try rows.int64(0, 0), try rows.string(0, 1))
            }
            #expect(matching.0 == 7 && matching.1 == "seven")
        }
    }
}
