/// One `language-range [; q=qvalue]` element of an `Accept-Language` header, normalised to lower case.
struct LanguageRange: Hashable, Sendable {
    /// Lower-case subtags, e.g. ["en", "gb"]; empty for `*`.
    let subtags: [Substring]
    /// Quality in thousandths, 0...1000; 0 means the client refuses the range.
    let quality: Int

    var isWildcard: Bool { subtags.isEmpty }

    /// Supported locales that the range covers by RFC 4647 basic filtering, used to honour `q=0`.
    var refusedLocales: Set<SupportedLocale> {
        guard !isWildcard else { return [] }
        return Set(
            SupportedLocale.allCases.filter { locale in
                let localeSubtags = locale.identifier.lowercased().split(separator: "-")
                return localeSubtags.starts(with: subtags)
            })
    }

    /// The well-formed ranges of `header`, in header order. Reads at most
    /// `LocaleNegotiator.maximumHeaderBytes` bytes and `LocaleNegotiator.maximumRanges` ranges; a range cut
    /// by the byte limit is dropped rather than guessed at.
    static func parseList(_ header: String) -> [LanguageRange] {
        let bytes = header.utf8
        let isTruncated = bytes.count > LocaleNegotiator.maximumHeaderBytes
        var pieces = bytes.prefix(LocaleNegotiator.maximumHeaderBytes)
            .split(separator: UInt8(ascii: ","), maxSplits: LocaleNegotiator.maximumRanges)
        if pieces.count > LocaleNegotiator.maximumRanges || isTruncated {
            pieces.removeLast()
        }
        return pieces.compactMap { parse(Substring($0)) }
    }

    /// Parses one element; nil when its tag or q-value is malformed.
    static func parse(_ element: Substring) -> LanguageRange? {
        var parts = element.split(separator: ";", omittingEmptySubsequences: false).makeIterator()
        guard let rawTag = parts.next().map(trimmed), let subtags = parseTag(rawTag) else { return nil }
        var quality = 1000
        while let parameter = parts.next().map(trimmed) {
            guard let equals = parameter.firstIndex(of: "=") else { return nil }
            let name = trimmed(parameter[..<equals])
            guard name == "q" || name == "Q" else { continue }
            guard let value = parseQuality(trimmed(parameter[parameter.index(after: equals)...])) else {
                return nil
            }
            quality = value
        }
        return LanguageRange(subtags: subtags, quality: quality)
    }

    /// `*`, or 1-8 letters followed by `-`/`_`-separated subtags of 1-8 letters or digits; lower-cased.
    private static func parseTag(_ tag: Substring) -> [Substring]? {
        if tag == "*" { return [] }
        let subtags = tag.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" })
        guard let language = subtags.first, language.utf8.allSatisfy(isASCIILetter) else { return nil }
        var lowered: [Substring] = []
        lowered.reserveCapacity(subtags.count)
        for subtag in subtags {
            guard (1...8).contains(subtag.utf8.count),
                subtag.utf8.allSatisfy({ isASCIILetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) })
            else { return nil }
            lowered.append(Substring(subtag.lowercased()))
        }
        return lowered
    }

    /// RFC 9110 qvalue: `0` or `1`, optionally followed by `.` and up to three digits, at most 1; in thousandths.
    private static func parseQuality(_ text: Substring) -> Int? {
        let bytes = Array(text.utf8.prefix(6))
        guard (1...5).contains(bytes.count), text.utf8.count == bytes.count,
            bytes[0] == UInt8(ascii: "0") || bytes[0] == UInt8(ascii: "1")
        else { return nil }
        var thousandths = Int(bytes[0] - UInt8(ascii: "0")) * 1000
        if bytes.count > 1 {
            guard bytes[1] == UInt8(ascii: ".") else { return nil }
            var scale = 100
            for digit in bytes[2...] {
                guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
                thousandths += Int(digit - UInt8(ascii: "0")) * scale
                scale /= 10
            }
        }
        return thousandths <= 1000 ? thousandths : nil
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    /// Drops the optional white space (spaces and tabs) HTTP allows around list elements and parameters.
    private static func trimmed(_ text: Substring) -> Substring {
        let isOWS: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = text.firstIndex(where: { !isOWS($0) }), let end = text.lastIndex(where: { !isOWS($0) })
        else { return text[text.endIndex...] }
        return text[start...end]
    }
}
