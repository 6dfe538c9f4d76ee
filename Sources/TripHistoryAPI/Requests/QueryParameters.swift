/// A request's query string decoded the way clients encode it (`application/x-www-form-urlencoded`, as
/// Python `requests`, browsers' `URLSearchParams`, `curl --data-urlencode` and Go's `url.Values` write it):
/// `+` is a space and each percent-escape is decoded exactly once. A name or value whose escapes are broken
/// or whose bytes are not UTF-8 is refused with a problem that names the parameter when it is one the API
/// defines, and otherwise `query`: a problem never echoes a name the client made up.
public struct QueryParameters: Sendable, Sequence {
    public typealias Element = (name: Substring, value: Substring)

    private var pairs: [Element]

    /// Decodes `query`, the text after `?` (empty when there is none). Scans bytes, not characters: the
    /// separators are ASCII, so every slice boundary is also a character boundary.
    public init(decoding query: Substring) throws(Problem) {
        var pairs: [Element] = []
        let bytes = query.utf8
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
            defer { start = end < bytes.endIndex ? bytes.index(after: end) : end }
            guard start < end else { continue }
            let rawName: Substring
            let rawValue: Substring
            if let equals = bytes[start..<end].firstIndex(of: UInt8(ascii: "=")) {
                rawName = Substring(bytes[start..<equals])
                rawValue = Substring(bytes[bytes.index(after: equals)..<end])
            } else {
                (rawName, rawValue) = (Substring(bytes[start..<end]), "")
            }
            guard let name = Self.decode(rawName) else {
                throw Problem.invalidParameter(
                    "query", "The query has a parameter name that is not valid percent-encoded UTF-8.")
            }
            guard let value = Self.decode(rawValue) else {
                guard let known = Self.knownNames.first(where: { Self.same(name, $0) }) else {
                    throw Problem.invalidParameter(
                        "query",
                        "A query parameter this API does not define has a value that is not valid percent-encoded UTF-8."
                    )
                }
                throw Problem.invalidParameter(known, "\(known) is not valid percent-encoded UTF-8.")
            }
            pairs.append((name, value))
        }
        self.pairs = pairs
    }

    /// Every query parameter name a route of the API reads, the only names a problem may give as `param`.
    static let knownNames = Set(
        TripListParameters.names + AnalystQueryParameters.names + AnalystListParameters.names
            + AnalystStatsParameters.names
    )

    /// The query of a request target such as `/v1/riders/1/trips?limit=2`.
    public init(target: some StringProtocol) throws(Problem) {
        let target = Substring(target)
        let query = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target[target.utf8.index(after: $0)...] }
        try self.init(decoding: query ?? "")
    }

    /// The path of a request target: the text before `?`.
    public static func path(ofTarget target: String) -> Substring {
        target[..<(target.utf8.firstIndex(of: UInt8(ascii: "?")) ?? target.endIndex)]
    }

    /// The first value of `name`, nil when absent.
    public subscript(name: String) -> Substring? {
        for pair in pairs where Self.same(pair.name, name) { return pair.value }
        return nil
    }

    /// Whether a decoded parameter name is `name`, one of the API's ASCII names: lengths first, since most
    /// names differ there, then the string comparison, which for ASCII compares the bytes at once.
    static func same(_ key: Substring, _ name: String) -> Bool {
        key.utf8.count == name.utf8.count && key == name
    }

    public func makeIterator() -> IndexingIterator<[Element]> {
        pairs.makeIterator()
    }

    /// `text` with `+` as a space and percent-escapes decoded; nil when an escape is malformed or the result
    /// is not UTF-8. Text without either is returned as it is, without copying.
    static func decode(_ text: Substring) -> Substring? {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return text
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { return nil }
        return Substring(decoded)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
