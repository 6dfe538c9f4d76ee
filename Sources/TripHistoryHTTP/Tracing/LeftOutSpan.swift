import Tracing

/// The span of a request the head sampler left out: it records nothing, and keeps the `traceparent` the
/// request's `traceresponse` and error log lines name.
struct LeftOutSpan: Span {
    let traceParent: String

    var context: ServiceContext { .topLevel }
    var isRecording: Bool { false }
    var operationName: String {
        get { "" }
        nonmutating set {}
    }
    var attributes: SpanAttributes {
        get { [:] }
        nonmutating set {}
    }

    func setStatus(_ status: SpanStatus) {}
    func addEvent(_ event: SpanEvent) {}
    func addLink(_ link: SpanLink) {}
    func recordError<Instant: TracerInstant>(
        _ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant
    ) {}
    func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {}
}
