import Foundation

/// A finished trip reported by a backend service, not yet stored. Build it through `validated(...)`,
/// which enforces every rule a stored trip obeys.
public struct NewTrip: Hashable, Sendable {
    public let riderID: RiderID
    public let details: TripDetails

    private init(riderID: RiderID, details: TripDetails) {
        self.riderID = riderID
        self.details = details
    }

    /// Longest accepted free-text field, in UTF-8 bytes; keeps rows and pages small.
    public static let maximumTextBytes = 512

    /// Checks the rules of a recorded trip and returns the trip with times cut to the store's precision.
    /// Throws `ValidationError` naming the first offending field by its JSON path (e.g. `pickup.lat`).
    public static func validated(
        riderID: RiderID,
        status: TripStatus,
        product: String,
        city: String,
        timeZone: String,
        requestedAt: Date,
        startedAt: Date,
        completedAt: Date?,
        pickup: Place,
        dropoff: Place,
        distanceMeters: Int64,
        durationSeconds: Int64,
        fare: Money
    ) throws(ValidationError) -> NewTrip {
        try checkText(product, field: "product")
        try checkText(city, field: "city")
        guard IANATimeZone.named(timeZone) != nil else {
            throw ValidationError(field: "time_zone", reason: "must be an IANA time zone such as Europe/Paris")
        }
        try checkPlace(pickup, field: "pickup")
        try checkPlace(dropoff, field: "dropoff")
        guard distanceMeters >= 0 else { throw ValidationError(field: "distance_m", reason: "must not be negative") }
        guard durationSeconds >= 0 else { throw ValidationError(field: "duration_s", reason: "must not be negative") }
        guard fare.amountMinor >= 0 else {
            throw ValidationError(field: "fare.amount_minor", reason: "must not be negative")
        }
        guard startedAt >= requestedAt else {
            throw ValidationError(field: "started_at", reason: "must not be before requested_at")
        }
        switch (status, completedAt) {
        case (.completed, nil):
            throw ValidationError(field: "completed_at", reason: "is required for a completed trip")
        case (.canceled, .some):
            throw ValidationError(field: "completed_at", reason: "must be null for a canceled trip")
        case (.completed, .some(let completedAt)) where completedAt < startedAt:
            throw ValidationError(field: "completed_at", reason: "must not be before started_at")
        default:
            break
        }
        let details = TripDetails(
            status: status, product: product, city: city, timeZone: timeZone,
            requestedAt: Timestamp.normalized(requestedAt), startedAt: Timestamp.normalized(startedAt),
            completedAt: completedAt.map(Timestamp.normalized),
            pickup: pickup, dropoff: dropoff, distanceMeters: distanceMeters, durationSeconds: durationSeconds,
            fare: fare
        )
        return NewTrip(riderID: riderID, details: details)
    }

    private static func checkText(_ text: String, field: String) throws(ValidationError) {
        guard !text.isEmpty, text.utf8.count <= maximumTextBytes else {
            throw ValidationError(field: field, reason: "must be 1 to \(maximumTextBytes) bytes long")
        }
        guard !text.unicodeScalars.contains(where: { $0.value == 0 }) else {
            throw ValidationError(field: field, reason: "must not contain NUL characters")
        }
    }

    private static func checkPlace(_ place: Place, field: String) throws(ValidationError) {
        guard place.latitude.isFinite, (-90...90).contains(place.latitude) else {
            throw ValidationError(field: "\(field).lat", reason: "must be between -90 and 90")
        }
        guard place.longitude.isFinite, (-180...180).contains(place.longitude) else {
            throw ValidationError(field: "\(field).lon", reason: "must be between -180 and 180")
        }
        try checkText(place.address, field: "\(field).address")
    }
}
