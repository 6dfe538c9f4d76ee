import Foundation

/// A recorded trip as the service sends it; `display` holds the strings to show, already localized.
public typealias Trip = Components.Schemas.Trip
/// How a trip ended.
public typealias TripStatus = Components.Schemas.TripStatus
