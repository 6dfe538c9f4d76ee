public import Foundation

/// The time zone names this service accepts: IANA identifiers such as `Europe/Paris`, plus `UTC`.
/// Abbreviations and bare offsets (`EST`, `GMT+1`) are refused because they are ambiguous or have no DST rules.
public enum IANATimeZone {
    private static let known: Set<String> = Set(TimeZone.knownTimeZoneIdentifiers).union(["UTC"])

    /// The zone named `identifier`, or nil when it is not a known IANA name.
    public static func named(_ identifier: some StringProtocol) -> TimeZone? {
        let name = String(identifier)
        guard name == "UTC" || name.contains("/") else { return nil }
        if known.contains(name) { return TimeZone(identifier: name) }
        // `knownTimeZoneIdentifiers` lists some zones only by an older alias (`Asia/Calcutta`, not the canonical
        // `Asia/Kolkata`); the time zone database still resolves the current name, exactly as written.
        guard let zone = TimeZone(identifier: name), zone.identifier == name else { return nil }
        return zone
    }
}
