public import InMemoryTracing
public import Tracing

/// swift-distributed-tracing's `InMemoryTracer` propagating W3C `traceparent` fields, as swift-otel's tracer
/// does, so tests can send a client's trace and read the `traceresponse` back. Ids are random hex of W3C's
/// lengths.
public struct W3CInMemoryTracer: Tracer {
    public let base = InMemoryTracer(
        idGenerator: .init(
            nextTraceID: { W3CInMemoryTracer.hex(bytes: 16) }, nextSpanID: { W3CInMemoryTracer.hex(bytes: 8) }))

    public init() {}

    /// The spans ended so far.
    public var finishedSpans: [FinishedInMemorySpan] { base.finishedSpans }

    public func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> InMemorySpan {
        base.startSpan(
            operationName, context: context(), ofKind: kind, at: instant(), function: function, file: fileID,
            line: line)
    }

    public func forceFlush() { base.forceFlush() }

    public func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        guard let span = context.inMemorySpanContext else { return }
        injector.inject("00-\(span.traceID)-\(span.spanID)-01", forKey: "traceparent", into: &carrier)
    }

    public func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        guard let value = extractor.extract(key: "traceparent", from: carrier) else { return }
        let fields = value.split(separator: "-")
        guard fields.count == 4 else { return }
        context.inMemorySpanContext = InMemorySpanContext(
            traceID: String(fields[1]), spanID: String(fields[2]), parentSpanID: nil)
    }

    /// `bytes` random bytes in lowercase hex, the form of W3C trace and span ids.
    public static func hex(bytes: Int) -> String {
        (0..<bytes).map { _ in
            let byte = UInt8.random(in: 0...255)
            return String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
        }.joined()
    }
}
