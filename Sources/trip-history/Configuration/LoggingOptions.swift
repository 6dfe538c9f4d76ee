import ArgumentParser
import Logging
import OTel
import TripHistoryLogging

/// How `serve` writes its log lines. Flags override the environment:
///
/// - `TRIP_HISTORY_LOG_FORMAT` (`--log-format`): `text` (default), swift-log's plain lines, or `json`, one
///   JSON object per line (`JSONLogHandler`).
///
/// The level stays `LOG_LEVEL`, read where the logger is made.
struct LoggingOptions: ParsableArguments {
    /// The shape of a log line.
    enum Format: String, Sendable {
        /// swift-log's stream handler: `time level label: metadata [source] message`.
        case text
        /// One JSON object per line: time, level, label, message, source, request id, metadata.
        case json
    }

    @Option(help: "Log line format, text or json. Default: $TRIP_HISTORY_LOG_FORMAT, else text.")
    var logFormat: String?

    /// The format asked for; throws on anything but text or json.
    func format(environment: [String: String]) throws -> Format {
        let text = logFormat ?? environment["TRIP_HISTORY_LOG_FORMAT"] ?? "text"
        guard let format = Format(rawValue: text.lowercased()) else {
            throw ValidationError("The log format must be text or json, not '\(text)'.")
        }
        return format
    }

    /// Makes every logger of the process write in `format`: called once, before the first logger is made.
    /// Text keeps swift-log's default handler. With `tracing`, JSON lines written while a span is active carry
    /// its `trace_id`, `span_id` and `trace_flags` (swift-otel's metadata provider).
    static func bootstrap(_ format: Format, tracing: Bool = false) {
        switch format {
        case .text:
            break
        case .json:
            LoggingSystem.bootstrap(
                { label, metadataProvider in JSONLogHandler(label: label, metadataProvider: metadataProvider) },
                metadataProvider: tracing ? OTel.makeLoggingMetadataProvider() : nil)
        }
    }
}
