/// The fields of a W3C `traceparent`: the trace, the span that sent it and whether it was sampled.
struct W3CTraceParent: Equatable {
    let traceID: String
    let parentID: String
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
        parentID = String(fields[2])
        sampled = flags & 1 == 1
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
    }
}
