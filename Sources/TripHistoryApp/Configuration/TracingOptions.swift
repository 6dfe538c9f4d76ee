import Foundation
public import Logging
import OTel
public import ServiceLifecycle
public import Tracing
public import TripHistoryHTTP

/// Distributed traces, off unless asked for, configured by OpenTelemetry's standard environment variables,
/// which swift-otel reads itself:
///
/// - `OTEL_TRACES_EXPORTER`: `otlp` turns tracing on; unset or `none` leaves it off.
/// - `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`: where spans are sent
///   (default `http://localhost:4318`, `/v1/traces` appended to the first).
/// - `OTEL_EXPORTER_OTLP_PROTOCOL` / `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`: only `http/protobuf` (the default)
///   is built in.
/// - `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`: the sampler (default `parentbased_always_on`); the
///   service applies the two ratio samplers itself (`HeadSampler`) and swift-otel the others.
/// - `OTEL_SERVICE_NAME`: the service's name in the traces (default `trip-history`).
public enum TracingOptions {
    /// The environment variable that turns tracing on.
    static let exporterVariable = "OTEL_TRACES_EXPORTER"

    /// The variables the service documents (docs/configuration.md), whose values `serve` logs when tracing is
    /// on so an operator sees where traces go; swift-otel reads all but the first itself. Header variables
    /// (`OTEL_EXPORTER_OTLP_HEADERS`), which may carry credentials, are not among them.
    static let loggedVariables = [
        exporterVariable, "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
        "OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", samplerVariable,
        samplerArgumentVariable, "OTEL_SERVICE_NAME", "OTEL_BSP_SCHEDULE_DELAY",
    ]

    /// The log metadata of the tracing settings set in `environment`.
    public static func settings(environment: [String: String]) -> Logger.Metadata {
        var metadata: Logger.Metadata = [:]
        for name in loggedVariables {
            if let value = environment[name] { metadata[name] = .string(value) }
        }
        return metadata
    }

    /// Whether `environment` asks for traces; throws on an exporter other than `otlp` or `none`.
    public static func isEnabled(environment: [String: String]) throws -> Bool {
        switch environment[exporterVariable]?.lowercased() {
        case nil, "", "none": return false
        case "otlp": return true
        case let other?:
            throw ConfigurationError("OTEL_TRACES_EXPORTER must be otlp or none, not '\(other)'.")
        }
    }

    /// The tracer, the service that exports its spans (run it with the application) and the head sampler, or
    /// nil when tracing is off. Throws when swift-otel refuses the configuration (a gRPC protocol, a bad sampler)
    /// or a ratio is not one.
    public static func tracing(environment: [String: String]) throws -> TracingSetup? {
        guard try isEnabled(environment: environment) else { return nil }
        let headSampler = try headSampler(environment: environment)
        if let headSampler {
            // The service samples by ratio itself (HeadSampler), so swift-otel, which reads these variables
            // from the process environment, must keep every span it is handed.
            setenv(samplerVariable, headSampler.tracerSampler, 1)
            unsetenv(samplerArgumentVariable)
        }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "trip-history"
        configuration.traces.enabled = true
        configuration.traces.exporter = .otlp
        configuration.metrics.enabled = false
        configuration.logs.enabled = false
        // swift-otel's own diagnostics (its configuration at start, failed exports) go through the process's
        // logging system, so with JSON logs they are JSON lines too, not plain text on standard error.
        configuration.diagnosticLogger = .custom(Logger(label: "trip-history.otel"))
        // The environment overrides every value set here (OTel.Configuration's own rules).
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        return TracingSetup(tracer: backend.factory, service: backend.service, headSampler: headSampler)
    }

    static let samplerVariable = "OTEL_TRACES_SAMPLER"
    static let samplerArgumentVariable = "OTEL_TRACES_SAMPLER_ARG"

    /// The head sampler of `traceidratio` and `parentbased_traceidratio` (ratio `OTEL_TRACES_SAMPLER_ARG`, 1 when
    /// unset, as OpenTelemetry specifies); nil for the other samplers, which swift-otel applies as they are.
    static func headSampler(environment: [String: String]) throws -> HeadSampler? {
        let name = environment[samplerVariable]?.lowercased()
        guard name == "traceidratio" || name == "parentbased_traceidratio" else { return nil }
        var ratio = 1.0
        if let argument = environment[samplerArgumentVariable], !argument.isEmpty {
            guard let value = Double(argument), (0...1).contains(value) else {
                throw ConfigurationError("\(samplerArgumentVariable) must be a ratio from 0 to 1, not '\(argument)'.")
            }
            ratio = value
        }
        return HeadSampler(rule: name == "traceidratio" ? .ratio(ratio) : .parentBasedRatio(ratio))
    }
}

/// What tracing needs in the composition root: the tracer, the service exporting its spans, and the head
/// sampler that leaves requests and notifications out before the tracer sees them (nil: the tracer decides).
public struct TracingSetup {
    public let tracer: any Tracer
    public let service: any Service
    public let headSampler: HeadSampler?
}
