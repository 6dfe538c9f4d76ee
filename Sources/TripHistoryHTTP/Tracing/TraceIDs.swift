import Synchronization

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
