public import Foundation

/// The time zone names this service accepts: IANA identifiers such as `Europe/Paris`, plus `UTC`.
/// Abbreviations and bare offsets (`EST`, `GMT+1`) are refused because they are ambiguous or have no DST rules.
public enum IANATimeZone {
    private static let known: Set<String> = Set(TimeZone.knownTimeZoneIdentifiers).union(["UTC"])

    /// The zone named `identifier`, or nil when it is not a known IANA name.
    public static func named(_ identifier: some StringProtocol) -> TimeZone? {
        let name = String(identifier)
        guard known.contains(name), name == "UTC" || name.contains("/") else { return nil }
        return TimeZone(identifier: name)
    }
}
