import Foundation
import Testing

@testable import TripHistoryData

/// The reader of the breakdown's and the ledger's JSON, against what PostgreSQL prints and what a standard
/// encoder writes.
@Suite struct StoredJSONTests {
    @Test func readsPostgresJSONBAndJSONOutput() throws {
        // `jsonb::text` of a breakdown, and `json_agg(json_build_object(...))::text` of a ledger, as printed.
        let breakdown = try #require(
            StoredJSON.objects(
                #"[{"kind": "base", "amount_minor": 1000}, {"kind": "promotion", "amount_minor": -250}]"#))
        #expect(breakdown.map { $0.string("kind") } == ["base", "promotion"])
        #expect(breakdown.map { $0.integer("amount_minor") } == [1000, -250])
        let ledger = try #require(
            StoredJSON.objects(
                #"[{"id" : 7, "kind" : "tip", "amount_minor" : 300, "reason" : "thanks", "created_at_us" : 1767225600000000}, "#
                    + "\n "
                    + #"{"id" : 9, "kind" : "refund", "amount_minor" : -534, "reason" : null, "created_at_us" : 1}]"#))
        #expect(ledger.count == 2)
        #expect(ledger[0].integer("created_at_us") == 1_767_225_600_000_000)
        #expect(ledger[1]["reason"] == .null && ledger[1].string("reason") == nil)
        #expect(StoredJSON.objects("[]")?.isEmpty == true)
        #expect(StoredJSON.objects(" [ { } ] ")?.first?.members.isEmpty == true)
    }

    /// Strings with quotes, backslashes, control characters, line separators, accents and astral scalars
    /// come back as they were after a standard encoder escaped them (it writes `\u` escapes and `\/`).
    @Test func unescapesWhatEncodersWrite() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Unicode.Scalar] = [
            "a", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{8}", "\u{C}",
            "é", "\u{2028}", "\u{85}", "🚕", "€", " ", "}", ",", "]",
        ]
        for _ in 0..<500 {
            let reason = String(
                String.UnicodeScalarView(
                    (0..<Int.random(in: 0...24, using: &generator)).map { _ in
                        alphabet.randomElement(using: &generator)!
                    }))
            let encoded = String(
                decoding: try JSONSerialization.data(withJSONObject: [["reason": reason, "id": 5]]), as: UTF8.self)
            let objects = try #require(StoredJSON.objects(encoded), "\(encoded)")
            #expect(objects.first?.string("reason") == reason)
            #expect(objects.first?.integer("id") == 5)
        }
        let escaped = try #require(StoredJSON.objects(#"[{"r": "\ud83d\ude95 \u00e9\/"}]"#))
        #expect(escaped.first?.string("r") == "🚕 é/")
    }

    @Test func refusesWhatIsNotAnArrayOfFlatObjects() {
        for text in [
            "", "{}", "[", "[{]", #"[{"a": 1.5}]"#, #"[{"a": 1e3}]"#, #"[{"a": true}]"#, #"[{"a": [1]}]"#,
            #"[{"a": {"b": 1}}]"#, #"[{"a": "x}]"#, #"[{"a": "\q"}]"#, #"[{"a": "\ud83d"}]"#, #"[{"a": "\udc00"}]"#,
            #"[{"a": 9223372036854775808}]"#, #"[{"a": -}]"#, #"[{"a": 1}] x"#, #"[{"a": 1},]"#, #"[{"a" 1}]"#,
        ] {
            #expect(StoredJSON.objects(text) == nil, "\(text)")
        }
        #expect(StoredJSON.objects(#"[{"a": -9223372036854775808}]"#)?.first?.integer("a") == Int64.min)
        #expect(StoredJSON.objects(#"[{"a": 9223372036854775807}]"#)?.first?.integer("a") == Int64.max)
    }
}
