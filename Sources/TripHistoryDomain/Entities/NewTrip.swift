public import Foundation

/// A finished trip reported by a backend service, not yet stored. Build it through `validated(...)`,
/// which enforces every rule a stored trip obeys.
public struct NewTrip: Hashable, Sendable {
    public let riderID: RiderID
    public let details: TripDetails
    public let receipt: TripReceipt

    private init(riderID: RiderID, details: TripDetails, receipt: TripReceipt) {
        self.riderID = riderID
        self.details = details
        self.receipt = receipt
    }

    /// Longest accepted free-text field, in UTF-8 bytes; keeps rows and pages small.
    public static let maximumTextBytes = 512

    /// Longest accepted `distance_m`: 2,000 km, more than any ride-hailing trip drives (a day and night at
    /// motorway speed). Bounds like this one keep every stored value, and every realistic sum of them, far
    /// inside Int64, so statistics never add up to more than they can report.
    public static let maximumDistanceMeters: Int64 = 2_000_000

    /// Longest accepted `duration_s`: 48 hours, twice the longest ride a driver could give in one go.
    public static let maximumDurationSeconds: Int64 = 172_800

    /// Largest accepted `fare.amount_minor`: 10^13 minor units. Minor units make the same fare a very
    /// different number per currency: JPY and KRW have none, IDR and VND count in thousands per dollar, and
    /// IRR (two minor digits, around a million rials to the dollar at market rates) needs about 10^8 minor
    /// units per US dollar; this bound still admits a 100,000-dollar fare in rials, while no currency's real
    /// fare comes near it.
    public static let maximumFareMinor: Int64 = 10_000_000_000_000

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
        fare: Money,
        receipt: TripReceipt = .empty
    ) throws(ValidationError) -> NewTrip {
        try checkText(product, field: "product")
        try checkText(city, field: "city")
        guard IANATimeZone.named(timeZone) != nil else {
            throw ValidationError(field: "time_zone", reason: "must be an IANA time zone such as Europe/Paris")
        }
        try checkPlace(pickup, field: "pickup")
        try checkPlace(dropoff, field: "dropoff")
        try checkAmount(distanceMeters, maximum: maximumDistanceMeters, field: "distance_m")
        try checkAmount(durationSeconds, maximum: maximumDurationSeconds, field: "duration_s")
        try checkAmount(fare.amountMinor, maximum: maximumFareMinor, field: "fare.amount_minor")
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
        try checkReceipt(receipt, fare: fare)
        return NewTrip(riderID: riderID, details: details, receipt: receipt)
    }

    /// Most lines a fare's breakdown may have.
    public static let maximumFareLines = 16
    /// Longest accepted payment brand, in UTF-8 bytes.
    public static let maximumBrandBytes = 32
    /// Longest accepted driver or vehicle text, in UTF-8 bytes.
    public static let maximumDriverTextBytes = 64

    private static func checkReceipt(_ receipt: TripReceipt, fare: Money) throws(ValidationError) {
        if let lines = receipt.breakdown {
            guard (1...maximumFareLines).contains(lines.count) else {
                throw ValidationError(field: "fare.breakdown", reason: "must have 1 to \(maximumFareLines) lines")
            }
            var sum: Int64 = 0
            for (index, line) in lines.enumerated() {
                let field = "fare.breakdown[\(index)].amount_minor"
                if line.kind == .promotion {
                    guard line.amountMinor <= 0, line.amountMinor >= -maximumFareMinor else {
                        throw ValidationError(
                            field: field, reason: "must be between -\(maximumFareMinor) and 0 for a promotion")
                    }
                } else {
                    try checkAmount(line.amountMinor, maximum: maximumFareMinor, field: field)
                }
                sum += line.amountMinor
            }
            guard sum == fare.amountMinor else {
                throw ValidationError(field: "fare.breakdown", reason: "must sum exactly to fare.amount_minor")
            }
        }
        if let payment = receipt.payment {
            if let brand = payment.brand { try checkText(brand, field: "payment.brand", maximum: maximumBrandBytes) }
            if let last4 = payment.last4 {
                guard last4.utf8.count == 4,
                    last4.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
                else { throw ValidationError(field: "payment.last4", reason: "must be exactly four digits") }
                guard payment.method != .cash else {
                    throw ValidationError(field: "payment.last4", reason: "must be absent for a cash payment")
                }
            }
        }
        if let driver = receipt.driver {
            try checkText(driver.firstName, field: "driver.first_name", maximum: maximumDriverTextBytes)
            if let vehicle = driver.vehicle {
                try checkText(vehicle.make, field: "driver.vehicle.make", maximum: maximumDriverTextBytes)
                try checkText(vehicle.model, field: "driver.vehicle.model", maximum: maximumDriverTextBytes)
                try checkText(vehicle.color, field: "driver.vehicle.color", maximum: maximumDriverTextBytes)
                try checkText(vehicle.plate, field: "driver.vehicle.plate", maximum: maximumDriverTextBytes)
            }
        }
    }

    private static func checkText(
        _ text: String, field: String, maximum: Int = maximumTextBytes
    ) throws(ValidationError) {
        guard !text.isEmpty, text.utf8.count <= maximum else {
            throw ValidationError(field: field, reason: "must be 1 to \(maximum) bytes long")
        }
        guard !text.unicodeScalars.contains(where: { $0.value == 0 }) else {
            throw ValidationError(field: field, reason: "must not contain NUL characters")
        }
    }

    private static func checkAmount(_ value: Int64, maximum: Int64, field: String) throws(ValidationError) {
        guard value >= 0 else { throw ValidationError(field: field, reason: "must not be negative") }
        guard value <= maximum else { throw ValidationError(field: field, reason: "must be at most \(maximum)") }
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
