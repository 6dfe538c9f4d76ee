/// A value of one of the API's open enums: one this client knows, or one a later version of the API added,
/// kept as the service sent it rather than failing the response.
///
/// `openapi.yaml` describes an open enum as an `anyOf` of the known values and a plain string
/// (swift-openapi-generator's pattern), so the generated type holds both; this is the one to switch on.
public enum OpenEnumValue<Known: RawRepresentable & Sendable & Hashable>: Sendable, Hashable,
    CustomStringConvertible
where Known.RawValue == String {
    /// A value of this version of the API.
    case known(Known)
    /// A value this client was built without; show a fallback (a trip's `display.status` is always there).
    case unknown(String)

    /// The value for `rawValue`: `known` when this version has it.
    public init(rawValue: String) {
        self = Known(rawValue: rawValue).map(Self.known) ?? .unknown(rawValue)
    }

    /// The value as the service sent it.
    public var rawValue: String {
        switch self {
        case .known(let known): known.rawValue
        case .unknown(let text): text
        }
    }

    /// The known value, or nil for one this client does not know.
    public var known: Known? {
        if case .known(let known) = self { known } else { nil }
    }

    public var description: String { rawValue }
}
