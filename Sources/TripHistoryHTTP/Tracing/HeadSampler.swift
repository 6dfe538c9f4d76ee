import Synchronization

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

/// The fields of a W3C `traceparent` the sampler needs.
struct W3CTraceParent: Equatable {
    let traceID: String
    let sampled: Bool

    /// Parses `00-<32 hex>-<16 hex>-<2 hex>` (a later version may append fields), refusing all-zero ids.
    init?(_ value: String) {
        let fields = value.split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count >= 4, fields[0].utf8.count == 2, fields[0] != "ff",
            fields[1].utf8.count == 32, fields[2].utf8.count == 16, fields[3].utf8.count == 2,
            fields.count == 4 || fields[0] != "00",
            fields[0...3].allSatisfy({ $0.utf8.allSatisfy(Self.isLowerHex) }),
            fields[1].contains(where: { $0 != "0" }), fields[2].contains(where: { $0 != "0" }),
            let flags = UInt8(fields[3], radix: 16)
        else { return nil }
        traceID = String(fields[1])
        sampled = flags & 1 == 1
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
    }
}

/// Trace and span ids for the requests left out: SplitMix64 over a shared counter seeded at random, so ids are
/// unique, never zero, spread over their range and cost an atomic add instead of a system call; each
/// `traceparent` is written into one string.
final class TraceIDs: Sendable {
    private let counter: Atomic<UInt64>

    init() {
        var generator = SystemRandomNumberGenerator()
        counter = Atomic(generator.next())
    }

    func next() -> UInt64 {
        while true {
            var z = counter.wrappingAdd(0x9E37_79B9_7F4A_7C15, ordering: .relaxed).newValue
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            if z != 0 { return z }
        }
    }

    /// `00-<trace id high><trace id low>-<new span id>-00`.
    func traceParent(_ high: UInt64, _ low: UInt64) -> String {
        let span = next()
        return Self.traceParent { buffer in
            Self.hex(high, into: buffer, at: 3)
            Self.hex(low, into: buffer, at: 19)
            Self.hex(span, into: buffer, at: 36)
        }
    }

    /// `00-<traceID>-<new span id>-00`, for a trace continued from a caller (`traceID`: 32 hex digits).
    func traceParent(continuing traceID: String) -> String {
        let span = next()
        return Self.traceParent { buffer in
            for (offset, byte) in traceID.utf8.prefix(32).enumerated() { buffer[3 + offset] = byte }
            Self.hex(span, into: buffer, at: 36)
        }
    }

    private static func traceParent(_ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) -> String {
        String(unsafeUninitializedCapacity: 55) { buffer in
            for (offset, byte) in "00-".utf8.enumerated() { buffer[offset] = byte }
            buffer[35] = UInt8(ascii: "-")
            for (offset, byte) in "-00".utf8.enumerated() { buffer[52 + offset] = byte }
            fill(buffer)
            return 55
        }
    }

    private static func hex(_ value: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        let digits: StaticString = "0123456789abcdef"
        for index in 0..<16 {
            buffer[start + index] = digits.utf8Start[Int((value >> UInt64(60 - 4 * index)) & 0xF)]
        }
    }
}
