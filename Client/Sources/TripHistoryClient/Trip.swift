import Foundation

/// A recorded trip as the service sends it; `display` holds the strings to show, already localized. Members a
/// later version of the API adds are ignored.
public typealias Trip = Components.Schemas.Trip
/// How a trip ended, as a filter says it: the statuses of this version of the API.
public typealias TripStatus = Components.Schemas.TripStatus

extension Components.Schemas.Trip {
    /// How the trip ended: `.known` for this version's statuses, `.unknown` with the text for a status a later
    /// version added (its `display.status` still says it in words).
    public var outcome: OpenEnumValue<TripStatus> {
        if let known = status.value1 { return .known(known) }
        return OpenEnumValue(rawValue: status.value2 ?? "")
    }
}
