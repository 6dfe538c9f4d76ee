import Foundation
import Testing
import TripHistoryDomain

@testable import TripHistoryAPI
@testable import TripHistoryHTTP

@Suite struct ParsingAndEncodingTests {
    @Test(arguments: [
        ("2026-03-01T12:34:56Z", "2026-03-01T12:34:56.000000Z"),
        ("2026-03-01t12:34:56z", "2026-03-01T12:34:56.000000Z"),
        ("2026-03-01T12:34:56.5+01:00", "2026-03-01T11:34:56.500000Z"),
        ("2026-03-01T12:34:56.123456789-05:30", "2026-03-01T18:04:56.123456Z"),
        ("2026-03-01T00:30:00 02:00", "2026-02-28T22:30:00.000000Z"),
        ("2024-02-29T23:59:59Z", "2024-02-29T23:59:59.000000Z"),
        ("1969-12-31T23:59:59.999999Z", "1969-12-31T23:59:59.999999Z"),
    ])
    func timestampsParseAndFormat(input: String, expected: String) throws {
        let date = try #require(RFC3339.parseTimestamp(input))
        #expect(RFC3339.format(date) == expected)
    }

    @Test(arguments: [
        "2026-03-01T12:34:56", "2026-03-01", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-03-01T24:00:00Z",
        "2026-03-01T12:34:56.Z", "2026-03-01T12:34:56+0100", "2026-03-01T12:34:56Zjunk", "", "２０２６-03-01T00:00:00Z",
    ])
    func malformedTimestampsAreRejected(input: String) {
        #expect(RFC3339.parseTimestamp(input) == nil)
    }

    @Test func dateOnlyBoundsStartAtLocalMidnightEvenOnDSTDays() throws {
        let newYork = TimeZone(identifier: "America/New_York")!
        let springForward = try #require(RFC3339.parseDate("2026-03-08"))
        #expect(RFC3339.startOfDay(springForward, in: newYork).map(RFC3339.format) == "2026-03-08T05:00:00.000000Z")
        let dayAfter = try #require(RFC3339.parseDate("2026-03-09"))
        #expect(RFC3339.startOfDay(dayAfter, in: newYork).map(RFC3339.format) == "2026-03-09T04:00:00.000000Z")
        // In Santiago the clocks skip from midnight to 01:00, so the day starts at 01:00 local time.
        let santiago = TimeZone(identifier: "America/Santiago")!
        let skipped = try #require(RFC3339.parseDate("2026-09-06"))
        #expect(RFC3339.startOfDay(skipped, in: santiago).map(RFC3339.format) == "2026-09-06T04:00:00.000000Z")
    }

    @Test func cursorsRoundTripAndDetectTampering() throws {
        let codec = CursorCodec(secret: Array("a-secret-that-is-at-least-32-bytes-long!".utf8))
        let scope = CursorScope(riderID: RiderID(1)!, filter: .all)
        let position = PagePosition(
            key: TripKey(requestedAtMicros: 1_772_400_000_123_456, id: TripID(42)!), direction: .newer
        )
        let cursor = codec.encode(position, scope: scope)
        #expect(cursor.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(try codec.decode(cursor, scope: scope) == position)
        let other = CursorScope(riderID: RiderID(2)!, filter: .all)
        #expect(throws: CursorCodec.DecodingError.mismatch) { try codec.decode(cursor, scope: other) }
        let foreign = CursorCodec(secret: Array("another-secret-that-is-at-least-32-bytes".utf8))
        #expect(throws: CursorCodec.DecodingError.invalid) { try foreign.decode(cursor, scope: scope) }
        for index in cursor.indices {
            var bytes = Array(cursor)
            bytes[cursor.distance(from: cursor.startIndex, to: index)] = cursor[index] == "A" ? "B" : "A"
            #expect(throws: CursorCodec.DecodingError.self) { try codec.decode(String(bytes), scope: scope) }
        }
    }

    @Test func base64URLRoundTripsEveryLength() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("ab==") == nil)
        #expect(Base64URL.decode("aQ") == [0x69])
        // Non-zero leftover bits would give one byte string a second spelling.
        #expect(Base64URL.decode("ab") == nil)
        #expect(Base64URL.decode("ab+/") == nil)
    }

    @Test func jsonWriterEscapesStrings() throws {
        var writer = JSONWriter(capacity: 64)
        writer.beginObject()
        writer.field("text", "quote \" backslash \\ newline \n tab \t bell \u{07} é 東京")
        writer.field("none", nil as String?)
        writer.key("list")
        writer.beginArray()
        writer.int(1)
        writer.double(-73.9857)
        writer.bool(false)
        writer.endArray()
        writer.endObject()
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(
            text
                == #"{"text":"quote \" backslash \\ newline \n tab \t bell \u0007 é 東京","none":null,"list":[1,-73.9857,false]}"#
        )
        let parsed = try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: Any]
        #expect(parsed?["text"] as? String == "quote \" backslash \\ newline \n tab \t bell \u{07} é 東京")
    }

    /// The line terminators outside ASCII are escaped (JavaScript before ES2019 and line-splitting NDJSON
    /// readers break on them raw); their neighbours with the same lead bytes are not.
    @Test func jsonWriterEscapesNonASCIILineTerminators() throws {
        var writer = JSONWriter(capacity: 8)
        let value = "a\u{2028}b\u{2029}c\u{85}d \u{2027}\u{202F}\u{A0}\u{84}…¥"
        writer.string(value)
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text == "\"a\\u2028b\\u2029c\\u0085d \u{2027}\u{202F}\u{A0}\u{84}…¥\"")
        #expect(
            try JSONSerialization.jsonObject(with: Data(writer.bytes), options: .fragmentsAllowed) as? String == value)
    }

    /// Every character that must be escaped, at every offset within and across the eight-byte words the
    /// writer checks at once, among ASCII and multi-byte text, through a buffer that has to grow.
    @Test func jsonWriterEscapesAtEveryOffsetAndGrows() throws {
        let specials: [Character] = [
            "\"", "\\", "\n", "\r", "\t", "\u{00}", "\u{1F}", "\u{07}", "\u{85}", "\u{2028}", "\u{2029}",
        ]
        // Besides ASCII and other scripts, characters whose UTF-8 starts like the line terminators' (C2, E2 80).
        let fillers = ["a", "é", "東", "\u{7F}", " ", "~", "¥", "\u{202F}", "…"]
        var values: [String] = []
        for special in specials {
            for filler in fillers {
                for before in 0..<18 {
                    values.append(
                        String(repeating: filler, count: before) + String(special)
                            + String(repeating: filler, count: 17 - before))
                }
            }
        }
        values += fillers.map { String(repeating: $0, count: 40) }
        var writer = JSONWriter(capacity: 1)
        writer.beginArray()
        for value in values { writer.string(value) }
        writer.endArray()
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String])
        #expect(parsed == values)
        #expect(writer.byteCount == writer.bytes.count)
        // Nothing but the escapes JSON requires and the three line terminators: no raw control character or
        // line terminator, every other non-ASCII byte kept as is.
        #expect(!writer.bytes.contains { $0 < 0x20 })
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(!text.unicodeScalars.contains { ["\u{85}", "\u{2028}", "\u{2029}"].contains($0) })
        for escape in ["\\u0085", "\\u2028", "\\u2029"] { #expect(text.contains(escape)) }
        #expect(text.contains("東東東") && text.contains("¥¥¥") && text.contains("………"))
        #expect(text.contains("\u{202F}\u{202F}\u{202F}"))
    }

    @Test func jsonWriterNumbersAndTimestampsMatchTheirStringForms() throws {
        let integers: [Int64] = [0, 1, -1, 9, 10, 99, 100, 1_000_000_007, .max, .min, .max - 1, .min + 1]
        let dates = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.000001),
            Date(timeIntervalSince1970: 1_772_374_296.5), Date(timeIntervalSince1970: 253_402_300_799.999999),
        ]
        var writer = JSONWriter(capacity: 8)
        writer.beginArray()
        for integer in integers {
            writer.int(integer)
            writer.quotedInt(integer)
        }
        for date in dates { writer.timestamp(date) }
        writer.endArray()
        let expected = integers.map { "\($0),\"\($0)\"" } + dates.map { "\"\(RFC3339.format($0))\"" }
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "[" + expected.joined(separator: ",") + "]")
        #expect(RFC3339.format(dates[1]) == "1969-12-31T23:59:59.999999Z")
        var csv: [UInt8] = []
        for integer in integers { DecimalDigits.append(integer, to: &csv) }
        #expect(String(decoding: csv, as: UTF8.self) == integers.map(String.init).joined())
    }
}
