import Foundation
import NIOCore

/// Entity tags (RFC 9110 §8.8.3) of response bodies, and `If-None-Match` evaluation.
enum EntityTag {
    /// A strong tag: the body's 128-bit MurmurHash3 in base64url, quoted. Equal bodies get equal tags on
    /// every instance, so a client's tag stays valid across instances and cache misses; a cryptographic hash
    /// would cost several times as much per uncached page and defend against no one.
    static func strong(for body: ByteBuffer, version: Int? = nil) -> String {
        let opaque = Base64URL.encode(body.withUnsafeReadableBytes { Murmur3.hash128($0) })
        guard let version else { return "\"" + opaque + "\"" }
        return "\"v\(version)." + opaque + "\""
    }

    /// The trip version an `If-Match` names: the prefix of a tag this service gave a single trip's response.
    /// Nil when absent or `*` (any version); `.some(nil)` when it names none this service could have given.
    static func ifMatchVersion(_ fieldValues: [String]) -> Int?? {
        let members = fieldValues.flatMap { $0.split(separator: ",") }.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard !members.isEmpty, !members.contains("*") else { return nil }
        for member in members where member.hasPrefix("\"v") {
            let digits = member.dropFirst(2).prefix { $0.isASCII && $0.isNumber }
            if let version = Int(digits), member.dropFirst(2 + digits.count).first == "." { return .some(version) }
        }
        return .some(nil)
    }

    /// Whether `If-None-Match` (all of its field lines) matches `tag` under the weak comparison that
    /// RFC 9110 §13.1.2 prescribes for this header: `*` matches any current representation, and `W/"x"`
    /// matches `"x"`. Malformed members are ignored.
    static func ifNoneMatch(_ fieldValues: [String], matches tag: String) -> Bool {
        let opaque = Substring(stripWeak(Substring(tag)))
        for value in fieldValues {
            var rest = Substring(value)
            while true {
                rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
                guard !rest.isEmpty else { break }
                if rest.first == "*" { return true }
                rest = Substring(stripWeak(rest))
                guard rest.first == "\"" else {
                    // Not a tag: skip to the next member.
                    rest = rest.drop { $0 != "," }
                    continue
                }
                let afterQuote = rest.dropFirst()
                guard let close = afterQuote.firstIndex(of: "\"") else { break }
                let candidate = rest[rest.startIndex...close]
                if candidate == opaque { return true }
                rest = rest[rest.index(after: close)...]
            }
        }
        return false
    }

    private static func stripWeak(_ text: Substring) -> Substring {
        text.hasPrefix("W/") ? text.dropFirst(2) : text
    }
}
