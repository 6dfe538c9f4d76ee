/// Chooses the `SupportedLocale` that best fits an HTTP `Accept-Language` header (RFC 9110 §12.5.4).
///
/// Ranges are tried from the highest quality down, ties in header order. A range matches a supported
/// locale exactly (`en-GB`), by language with a regional rule for English (`en-AU`, `en-IE` and other
/// non-US English read as `en-GB`; bare `en` as `en-US`), or by language alone (`fr-CA` as `fr-FR`,
/// `de-AT` as `de-DE`). `*` stands for any locale the client did not refuse with `q=0`. Matching is
/// case-insensitive and accepts `_` for `-`.
///
/// Any input is safe: a missing, empty or malformed header, or one with no usable range, yields
/// `SupportedLocale.fallback`; malformed ranges are skipped one by one. Work is bounded: only the first
/// `maximumHeaderBytes` bytes and the first `maximumRanges` ranges are read.
public struct LocaleNegotiator: Sendable {
    /// Bytes of the header that are read; real headers are well under 200 bytes.
    public static let maximumHeaderBytes = 4096
    /// Ranges that are considered, in header order.
    public static let maximumRanges = 32

    public init() {}

    /// The best supported locale for `acceptLanguage`, or `SupportedLocale.fallback` when the header is
    /// absent or names nothing supported.
    public func bestMatch(acceptLanguage: String?) -> SupportedLocale {
        guard let acceptLanguage else { return .fallback }
        let ranges = LanguageRange.parseList(acceptLanguage)
        let refused = ranges.lazy.filter { $0.quality == 0 }.reduce(into: Set<SupportedLocale>()) {
            $0.formUnion($1.refusedLocales)
        }
        let preferred = ranges.enumerated()
            .filter { $0.element.quality > 0 }
            .sorted { ($0.element.quality, $1.offset) > ($1.element.quality, $0.offset) }
        for (_, range) in preferred {
            guard
                let candidate = range.isWildcard
                    ? SupportedLocale.allCases.first(where: { !refused.contains($0) })
                    : Self.match(range.subtags)
            else { continue }
            if !refused.contains(candidate) { return candidate }
        }
        return .fallback
    }

    /// The supported locale for a language tag given as lower-case subtags, or nil for an unsupported language.
    static func match(_ subtags: [Substring]) -> SupportedLocale? {
        guard let language = subtags.first else { return nil }
        switch language {
        case "en":
            guard let region = region(of: subtags) else { return .enUS }
            return usEnglishRegions.contains(region) ? .enUS : .enGB
        case "fr": return .frFR
        case "de": return .deDE
        case "ja": return .jaJP
        case "es": return .esES
        default: return nil
        }
    }

    /// Regions whose English follows US conventions (US territories, plus Canada and the Philippines,
    /// which write dates the US way); every other English region inherits CLDR's `en-001`, as en-GB does.
    private static let usEnglishRegions: Set<Substring> = ["us", "as", "gu", "mp", "pr", "um", "vi", "ca", "ph"]

    /// The region subtag (two letters or three digits), which follows the language and an optional script.
    private static func region(of subtags: [Substring]) -> Substring? {
        var index = 1
        if index < subtags.count, subtags[index].count == 4 { index += 1 }
        guard index < subtags.count else { return nil }
        let candidate = subtags[index]
        let isAlpha2 =
            candidate.utf8.count == 2
            && candidate.utf8.allSatisfy { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
        let isDigit3 =
            candidate.utf8.count == 3
            && candidate.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        return isAlpha2 || isDigit3 ? candidate : nil
    }
}
