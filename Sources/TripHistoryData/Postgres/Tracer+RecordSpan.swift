public import Tracing

extension Tracer {
    /// Records a span that already happened: it ended now, after `duration`, as a child of `context`. For work
    /// measured with a monotonic clock where starting a span up front would cost the untraced path.
    public func recordSpan(
        _ name: String, context: ServiceContext, ofKind kind: SpanKind = .internal, lasting duration: Duration,
        attributes: SpanAttributes = [:]
    ) {
        let end = DefaultTracerClock.now
        let (seconds, attoseconds) = duration.components
        let nanoseconds = UInt64(clamping: seconds) &* 1_000_000_000 &+ UInt64(clamping: attoseconds / 1_000_000_000)
        let start = DefaultTracerClock.Timestamp(
            nanosecondsSinceEpoch: end.nanosecondsSinceEpoch - min(nanoseconds, end.nanosecondsSinceEpoch))
        let span = startSpan(name, context: context, ofKind: kind, at: start)
        span.updateAttributes { $0.merge(attributes) }
        span.end(at: end)
    }
}
