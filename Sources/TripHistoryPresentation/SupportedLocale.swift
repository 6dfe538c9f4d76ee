public import Foundation

/// A locale the trip screens are translated and formatted for. Anything a client asks for is
/// narrowed to one of these by `LocaleNegotiator`.
public enum SupportedLocale: String, CaseIterable, Sendable, Hashable {
    case enUS = "en-US"
    case enGB = "en-GB"
    case frFR = "fr-FR"
    case deDE = "de-DE"
    case jaJP = "ja-JP"
    case esES = "es-ES"

    /// The locale used when a client states no usable preference.
    public static let fallback = SupportedLocale.enUS

    /// The BCP 47 language tag, e.g. "en-US", suitable for a `Content-Language` response header.
    public var identifier: String { rawValue }

    /// The Foundation locale that formats for this language and region.
    public var locale: Locale { Locale(identifier: rawValue) }

    /// The lower-case ISO 639 language subtag, e.g. "en".
    var languageCode: Substring { rawValue.prefix(while: { $0 != "-" }) }
}
