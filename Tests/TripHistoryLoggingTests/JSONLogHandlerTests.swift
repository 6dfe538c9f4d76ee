import Foundation
import Logging
import Synchronization
import Testing
import TripHistoryLogging

/// Lines of `JSONLogHandler` parsed back with `JSONSerialization`: one object per line whatever the text
/// holds, with the documented fields.
@Suite struct JSONLogHandlerTests {
    /// Collects what a handler writes.
    final class Lines: Sendable {
        private let written = Mutex<[[UInt8]]>([])
        var output: @Sendable ([UInt8]) -> Void { { line in self.written.withLock { $0.append(line) } } }
        var all: [[UInt8]] { written.withLock { $0 } }

        /// Each line as the object it parses to; fails the test when one is not a single JSON object.
        func objects() throws -> [[String: Any]] {
            try all.map { line in
                #expect(line.last == UInt8(ascii: "\n"), "a line ends with a newline")
                #expect(!line.dropLast().contains(UInt8(ascii: "\n")), "and holds no other")
                #expect(!line.dropLast().contains { $0 < 0x20 }, "nor any raw control character")
                let object = try JSONSerialization.jsonObject(with: Data(line.dropLast()))
                return try #require(object as? [String: Any])
            }
        }
    }

    static let instant = Date(timeIntervalSince1970: 1_795_000_000.125)

    static func logger(_ lines: Lines, label: String = "trip-history.test", level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: label) { label in
            JSONLogHandler(label: label, output: lines.output, clock: { instant })
        }
        logger.logLevel = level
        return logger
    }

    @Test func aLineHoldsTimeLevelLabelMessageSourceAndMetadata() throws {
        let lines = Lines()
        var logger = Self.logger(lines)
        logger[metadataKey: "component"] = "pool"
        logger.notice("connection dropped", metadata: ["attempt": "\(3)"])
        let object = try #require(try lines.objects().first)
        #expect(object["time"] as? String == "2026-11-18T11:06:40.125Z")
        #expect(object["level"] as? String == "notice")
        #expect(object["label"] as? String == "trip-history.test")
        #expect(object["message"] as? String == "connection dropped")
        #expect(object["source"] as? String == "TripHistoryLoggingTests")
        #expect(object["metadata"] as? [String: String] == ["component": "pool", "attempt": "3"])
        #expect(object["request_id"] == nil)
        #expect(Set(object.keys) == ["time", "level", "label", "message", "source", "metadata"])
    }

    @Test func theTimeIsRFC3339InUTC() throws {
        let lines = Lines()
        let logger = Logger(label: "t") { JSONLogHandler(label: $0, output: lines.output) }
        logger.info("now")
        let time = try #require(try lines.objects().first?["time"] as? String)
        #expect(time.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil, "\(time)")
        let parsed = try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(time)
        #expect(abs(parsed.timeIntervalSinceNow) < 3600)
    }

    @Test func theRequestIDIsATopLevelFieldAndNotRepeatedInMetadata() throws {
        let lines = Lines()
        var logger = Self.logger(lines)
        logger[metadataKey: "request_id"] = "req-42"
        logger.error("request failed", metadata: ["error": "boom"])
        logger.info("no other metadata")
        let objects = try lines.objects()
        #expect(objects[0]["request_id"] as? String == "req-42")
        #expect(objects[0]["metadata"] as? [String: String] == ["error": "boom"])
        #expect(objects[1]["request_id"] as? String == "req-42")
        #expect(objects[1]["metadata"] == nil, "no empty metadata object")
    }

    @Test func traceAndSpanIDsOfAMetadataProviderAreTopLevelFields() throws {
        let lines = Lines()
        let provider = Logger.MetadataProvider { ["trace_id": "4bf92f35", "span_id": "00f067aa", "tenant": "a"] }
        var logger = Logger(label: "t") {
            JSONLogHandler(label: $0, metadataProvider: provider, output: lines.output, clock: { Self.instant })
        }
        logger[metadataKey: "tenant"] = "b"
        logger.info("traced", metadata: ["tenant": "c"])
        let object = try #require(try lines.objects().first)
        #expect(object["trace_id"] as? String == "4bf92f35")
        #expect(object["span_id"] as? String == "00f067aa")
        #expect(object["metadata"] as? [String: String] == ["tenant": "c"], "the call's metadata wins")
    }

    @Test(arguments: [
        "say \"hi\"",
        "back\\slash",
        "two\nlines\r\nand a\ttab",
        "nul \u{0} bell \u{7} escape \u{1B}[31m unit \u{1F} delete \u{7F}",
        "Rue Secrète, São Paulo, 東京駅, 🚕",
        "separators \u{2028} and \u{2029}",
        "",
    ])
    func anyTextRoundTripsAsOneLine(text: String) throws {
        let lines = Lines()
        let logger = Self.logger(lines)
        logger.info("\(text)", metadata: [text: .string(text), "nested": ["list": [.string(text)]]])
        let object = try #require(try lines.objects().first)
        #expect(object["message"] as? String == text)
        let metadata = try #require(object["metadata"] as? [String: Any])
        #expect(metadata[text] as? String == text)
        #expect(((metadata["nested"] as? [String: Any])?["list"] as? [String])?.first == text)
    }

    @Test func controlCharactersAreWrittenAsUnicodeEscapes() throws {
        let lines = Lines()
        Self.logger(lines).info("a\u{0}b\u{7F}c\u{2028}d\"e\nf")
        let line = String(decoding: try #require(lines.all.first), as: UTF8.self)
        #expect(line.contains(#""message":"a\u0000b\u007fc\u2028d\"e\nf""#), "\(line)")
    }

    @Test func nonASCIIIsWrittenAsUTF8() throws {
        let lines = Lines()
        Self.logger(lines).info("é")
        let line = try #require(lines.all.first)
        #expect(line.contains(0xC3) && line.contains(0xA9))
    }

    @Test func nestedMetadataValuesKeepTheirShape() throws {
        let lines = Lines()
        Self.logger(lines).info(
            "shapes",
            metadata: ["count": .stringConvertible(7), "list": ["a", "b"], "map": ["z": "1", "y": ["2"]]])
        let metadata = try #require(try lines.objects().first?["metadata"] as? [String: Any])
        #expect(metadata["count"] as? String == "7")
        #expect(metadata["list"] as? [String] == ["a", "b"])
        let map = try #require(metadata["map"] as? [String: Any])
        #expect(map["z"] as? String == "1")
        #expect(map["y"] as? [String] == ["2"])
    }

    @Test func theLevelFiltersAndIsAValue() throws {
        let lines = Lines()
        var logger = Self.logger(lines, level: .warning)
        logger.info("dropped")
        logger.warning("kept")
        var copy = logger
        copy.logLevel = .trace
        copy.trace("kept too")
        logger.debug("dropped too")
        #expect(try lines.objects().map { $0["message"] as? String } == ["kept", "kept too"])
    }

    @Test(arguments: Logger.Level.allCases)
    func everyLevelIsWrittenByItsName(level: Logger.Level) throws {
        let lines = Lines()
        Self.logger(lines).log(level: level, "x")
        #expect(try lines.objects().first?["level"] as? String == level.rawValue)
    }
}
