import ArgumentParser
import Logging
import OTel
import ServiceLifecycle
import Tracing

/// Distributed traces, off unless asked for, configured by OpenTelemetry's standard environment variables,
/// which swift-otel reads itself:
///
/// - `OTEL_TRACES_EXPORTER`: `otlp` turns tracing on; unset or `none` leaves it off.
/// - `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`: where spans are sent
///   (default `http://localhost:4318`, `/v1/traces` appended to the first).
/// - `OTEL_EXPORTER_OTLP_PROTOCOL` / `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`: only `http/protobuf` (the default)
///   is built in.
/// - `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`: the sampler (default `parentbased_always_on`).
/// - `OTEL_SERVICE_NAME`: the service's name in the traces (default `trip-history`).
enum TracingOptions {
    /// The environment variable that turns tracing on.
    static let exporterVariable = "OTEL_TRACES_EXPORTER"

    /// The variables the service documents (docs/configuration.md), whose values `serve` logs when tracing is
    /// on so an operator sees where traces go; swift-otel reads all but the first itself. Header variables
    /// (`OTEL_EXPORTER_OTLP_HEADERS`), which may carry credentials, are not among them.
    static let loggedVariables = [
        exporterVariable, "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
        "OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_TRACES_SAMPLER",
        "OTEL_TRACES_SAMPLER_ARG", "OTEL_SERVICE_NAME", "OTEL_BSP_SCHEDULE_DELAY",
    ]

    /// The log metadata of the tracing settings set in `environment`.
    static func settings(environment: [String: String]) -> Logger.Metadata {
        var metadata: Logger.Metadata = [:]
        for name in loggedVariables {
            if let value = environment[name] { metadata[name] = .string(value) }
        }
        return metadata
    }

    /// Whether `environment` asks for traces; throws on an exporter other than `otlp` or `none`.
    static func isEnabled(environment: [String: String]) throws -> Bool {
        switch environment[exporterVariable]?.lowercased() {
        case nil, "", "none": return false
        case "otlp": return true
        case let other?:
            throw ValidationError("OTEL_TRACES_EXPORTER must be otlp or none, not '\(other)'.")
        }
    }

    /// The tracer and the service that exports its spans (run it with the application), or nil when
    /// tracing is off. Throws when swift-otel refuses the configuration (a gRPC protocol, a bad sampler).
    static func tracing(environment: [String: String]) throws -> (tracer: any Tracer, service: any Service)? {
        guard try isEnabled(environment: environment) else { return nil }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "trip-history"
        configuration.traces.enabled = true
        configuration.traces.exporter = .otlp
        configuration.metrics.enabled = false
        configuration.logs.enabled = false
        // The environment overrides every value set here (OTel.Configuration's own rules).
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        return (backend.factory, backend.service)
    }
}
