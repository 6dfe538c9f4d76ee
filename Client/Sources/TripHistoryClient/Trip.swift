import Foundation

/// A recorded trip as the service sends it; `display` holds the strings to show, already localized. Members a
/// later version of the API adds are ignored.
public typealias Trip = Components.Schemas.Trip
/// How a trip ended, as a filter says it: the statuses of this version of the API.
public typealias TripStatus = Components.Schemas.TripStatus
/// What a line of a fare's breakdown is for: the kinds of this version of the API.
public typealias FareLineKind = Components.Schemas.FareLineKind
/// What an adjustment after the ride is (tip, refund, fare correction): the kinds of this version of the API.
public typealias AdjustmentKind = Components.Schemas.AdjustmentKind

extension Components.Schemas.Trip {
    /// How the trip ended: `.known` for this version's statuses, `.unknown` with the text for a status a later
    /// version added (its `display.status` still says it in words).
    public var outcome: OpenEnumValue<TripStatus> {
        if let known = status.value1 { return .known(known) }
        return OpenEnumValue(rawValue: status.value2 ?? "")
    }
}

extension Components.Schemas.FareLine {
    /// What the line is for: `.unknown` with the text for a kind a later version added (show it by its amount).
    public var lineKind: OpenEnumValue<FareLineKind> {
        if let known = kind.value1 { return .known(known) }
        return OpenEnumValue(rawValue: kind.value2 ?? "")
    }
}

extension Components.Schemas.Adjustment {
    /// What the adjustment is: `.unknown` with the text for a kind a later version added (show it by its
    /// amount and `reason`).
    public var adjustmentKind: OpenEnumValue<AdjustmentKind> {
        if let known = kind.value1 { return .known(known) }
        return OpenEnumValue(rawValue: kind.value2 ?? "")
    }
}
