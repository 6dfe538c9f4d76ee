/// Head sampling for OpenTelemetry's two ratio samplers, decided by the service before a root span reaches the
/// tracer. swift-otel gives every span it starts, recorded or not, ids from a system random generator behind a
/// lock, which at a 1% ratio made the 99% left out cost about as much as tracing them; a request (or a change
/// notification) this sampler leaves out never calls the tracer, and one it keeps is handed to a tracer whose
/// own sampler keeps what it is given (`tracerSampler`).
public struct HeadSampler: Sendable {
    public enum Rule: Sendable, Equatable {
        /// `traceidratio`: a root and a continued trace alike are kept when their trace id falls in `ratio`.
        case ratio(Double)
        /// `parentbased_traceidratio`: a continued trace follows its parent's sampled flag; a root is kept with
        /// `ratio`.
        case parentBasedRatio(Double)
    }

    /// What to do with a request's span.
    public enum Decision: Sendable, Equatable {
        /// Start it with the tracer, which records it.
        case trace
        /// Leave it out: the request keeps `traceParent` (its trace, continued or new, and a span id of its
        /// own, flags `00`) for its `traceresponse` and its error log lines.
        case leaveOut(traceParent: String)
    }

    public let rule: Rule
    private let ids: TraceIDs

    public init(rule: Rule) {
        self.rule = rule
        ids = TraceIDs()
    }

    /// The sampler the tracer is configured with alongside this one (`OTEL_TRACES_SAMPLER`'s value).
    public var tracerSampler: String {
        switch rule {
        case .ratio: "always_on"
        case .parentBasedRatio: "parentbased_always_on"
        }
    }

    /// The decision for a request carrying `traceParent` (nil when it has none; a malformed one counts as none,
    /// as W3C Trace Context says).
    public func decide(traceParent: String?) -> Decision {
        if let parent = traceParent.flatMap(W3CTraceParent.init) {
            let kept: Bool
            switch rule {
            case .parentBasedRatio: kept = parent.sampled
            case .ratio(let ratio): kept = Self.keeps(parent.traceID, ratio: ratio)
            }
            return kept ? .trace : .leaveOut(traceParent: ids.traceParent(continuing: parent.traceID))
        }
        let (high, low) = (ids.next(), ids.next())
        return Self.keeps(low: low, ratio: ratio) ? .trace : .leaveOut(traceParent: ids.traceParent(high, low))
    }

    /// Whether a root span with no request behind it (a change notification) is kept.
    public func keepsRoot() -> Bool {
        Self.keeps(low: ids.next(), ratio: ratio)
    }

    private var ratio: Double {
        switch rule {
        case .ratio(let ratio), .parentBasedRatio(let ratio): ratio
        }
    }

    /// Whether a trace id (32 hex digits) falls in `ratio`: its last 16 digits, read as a number, are below
    /// `ratio` of their range, so every service sampling by ratio decides alike on one trace.
    static func keeps(_ traceID: String, ratio: Double) -> Bool {
        guard let low = UInt64(traceID.suffix(16), radix: 16) else { return false }
        return keeps(low: low, ratio: ratio)
    }

    static func keeps(low: UInt64, ratio: Double) -> Bool {
        guard ratio < 1 else { return true }
        return ratio > 0 && Double(low) < ratio * 18_446_744_073_709_551_616.0
    }
}
