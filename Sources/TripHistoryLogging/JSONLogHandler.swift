public import Foundation
public import Logging
import Synchronization

/// A swift-log handler that writes each log event as one JSON object on one line, for log pipelines that
/// parse structured lines (`serve --log-format json`).
///
/// A line holds, in this order: `time` (RFC 3339, UTC, milliseconds), `level`, `label`, `message`, `source`
/// (the module that logged), the correlation ids found in the metadata (`request_id`, and `trace_id` and
/// `span_id` once a tracing metadata provider supplies them) as top-level fields, then `metadata`: every
/// other metadata field (the handler's, the metadata provider's and the call's, the call's winning), omitted
/// when empty. Text is escaped so a line never holds a raw line break or control character, whatever a
/// message or value contains; non-ASCII text is written as UTF-8.
///
/// Like the default stream handler, it treats metadata and the level as values: changing them on one
/// `Logger` changes no other.
public struct JSONLogHandler: LogHandler {
    /// The metadata keys written as top-level fields rather than under `metadata`, in this order, when present.
    /// `trace_id` and `span_id` are reserved for a tracing metadata provider (swift-distributed-tracing's).
    public static let correlationKeys = ["request_id", "trace_id", "span_id"]

    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?

    private let label: String
    private let output: @Sendable ([UInt8]) -> Void
    private let clock: @Sendable () -> Date

    /// A handler for `label` that passes each line, newline included, to `output` (standard error unless a
    /// test passes its own), stamped with `clock`'s time.
    public init(
        label: String, metadataProvider: Logger.MetadataProvider? = nil,
        output: @escaping @Sendable ([UInt8]) -> Void = JSONLogHandler.standardError,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.output = output
        self.clock = clock
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { _, provided in provided } }
        if let own = event.metadata { fields.merge(own) { _, own in own } }
        if let error = event.error, fields["error"] == nil { fields["error"] = .string("\(error)") }
        output(
            Self.line(
                time: clock(), level: event.level, label: label, message: event.message.description,
                source: event.source, metadata: fields))
    }

    /// One log line: the JSON object described above, ended by `\n`.
    public static func line(
        time: Date, level: Logger.Level, label: String, message: String, source: String, metadata: Logger.Metadata
    ) -> [UInt8] {
        var json = JSONLineWriter()
        json.field("time", time.formatted(timeFormat))
        json.field("level", level.rawValue)
        json.field("label", label)
        json.field("message", message)
        json.field("source", source)
        var rest = metadata
        for key in correlationKeys {
            if let value = rest.removeValue(forKey: key) { json.field(key, value) }
        }
        if !rest.isEmpty { json.field("metadata", .dictionary(rest)) }
        return json.finish()
    }

    private static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// Writes a line to standard error in one call, lines of concurrent loggers never interleaving.
    public static let standardError: @Sendable ([UInt8]) -> Void = { line in
        JSONLogHandler.standardErrorLock.withLock { _ in
            FileHandle.standardError.write(Data(line))
        }
    }

    private static let standardErrorLock = Mutex(())
}
