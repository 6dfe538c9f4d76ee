import Foundation
import Testing
import TripHistoryDomain

@Suite struct NewTripRulesTests {
    let requested = Date(timeIntervalSince1970: 1_772_400_000)

    private func validate(
        status: TripStatus = .completed, timeZone: String = "Europe/Paris",
        started: TimeInterval = 60, completed: TimeInterval? = 600,
        pickupLat: Double = 48.85, dropoffLon: Double = 2.35, distance: Int64 = 10, duration: Int64 = 540,
        amount: Int64 = 100, product: String = "Comfort", currency: String = "EUR"
    ) throws(ValidationError) -> NewTrip {
        try NewTrip.validated(
            riderID: RiderID(1)!, status: status, product: product, city: "Paris", timeZone: timeZone,
            requestedAt: requested, startedAt: requested.addingTimeInterval(started),
            completedAt: completed.map { requested.addingTimeInterval($0) },
            pickup: Place(latitude: pickupLat, longitude: 2.29, address: "Tour Eiffel"),
            dropoff: Place(latitude: 48.86, longitude: dropoffLon, address: "Louvre"),
            distanceMeters: distance, durationSeconds: duration,
            fare: Money(amountMinor: amount, currency: CurrencyCode(currency)!)
        )
    }

    @Test func aValidTripPasses() throws {
        let trip = try validate()
        #expect(trip.details.city == "Paris")
        #expect(trip.fingerprint == (try validate()).fingerprint)
    }

    @Test func eachRuleNamesItsField() {
        let cases: [(String, () throws(ValidationError) -> NewTrip)] = [
            ("pickup.lat", { () throws(ValidationError) in try validate(pickupLat: 91) }),
            ("dropoff.lon", { () throws(ValidationError) in try validate(dropoffLon: -180.5) }),
            ("pickup.lat", { () throws(ValidationError) in try validate(pickupLat: .nan) }),
            ("time_zone", { () throws(ValidationError) in try validate(timeZone: "Mars/Olympus") }),
            ("time_zone", { () throws(ValidationError) in try validate(timeZone: "EST") }),
            ("started_at", { () throws(ValidationError) in try validate(started: -1) }),
            ("completed_at", { () throws(ValidationError) in try validate(completed: 30) }),
            ("completed_at", { () throws(ValidationError) in try validate(completed: nil) }),
            ("completed_at", { () throws(ValidationError) in try validate(status: .canceled, completed: 600) }),
            ("distance_m", { () throws(ValidationError) in try validate(distance: -1) }),
            ("fare.amount_minor", { () throws(ValidationError) in try validate(amount: -5) }),
            ("product", { () throws(ValidationError) in try validate(product: "") }),
            ("product", { () throws(ValidationError) in try validate(product: String(repeating: "x", count: 513)) }),
        ]
        for (field, attempt) in cases {
            #expect(throws: ValidationError.self) { _ = try attempt() }
            do {
                _ = try attempt()
            } catch {
                #expect(error.field == field)
            }
        }
    }

    /// Canonical IANA names are accepted even where the platform lists the zone by an older alias (found by the
    /// schemathesis run: `Asia/Kolkata` got 400/422); made-up names and abbreviations are still refused.
    @Test(arguments: ["Asia/Kolkata", "Europe/Kyiv", "Asia/Calcutta", "America/New_York", "Etc/GMT+1", "UTC"])
    func currentAndAliasZoneNamesAreAccepted(name: String) throws {
        let zone = try #require(IANATimeZone.named(name))
        #expect(name == "UTC" || zone.identifier == name)
        #expect(try validate(timeZone: name).details.timeZone == name)
    }

    @Test(arguments: ["Mars/Olympus", "EST", "GMT+1", "europe/paris", "Europe/Paris/x", "America/Foo", ""])
    func unknownZoneNamesAreRefused(name: String) {
        #expect(IANATimeZone.named(name) == nil)
    }

    /// Each upper bound: the bound itself is accepted and stored as sent, one more is refused naming the field.
    @Test(
        arguments: [
            ("distance_m", NewTrip.maximumDistanceMeters, 2_000_000),
            ("duration_s", NewTrip.maximumDurationSeconds, 172_800),
            ("fare.amount_minor", NewTrip.maximumFareMinor, 10_000_000_000_000),
        ] as [(String, Int64, Int64)])
    func upperBoundsAcceptTheBoundAndRefuseOneMore(field: String, maximum: Int64, expected: Int64) throws {
        #expect(maximum == expected)
        func attempt(_ value: Int64) throws(ValidationError) -> NewTrip {
            switch field {
            case "distance_m": try validate(distance: value)
            case "duration_s": try validate(duration: value)
            default: try validate(amount: value, currency: "IRR")
            }
        }
        let atBound = try attempt(maximum)
        let stored: [String: Int64] = [
            "distance_m": atBound.details.distanceMeters, "duration_s": atBound.details.durationSeconds,
            "fare.amount_minor": atBound.details.fare.amountMinor,
        ]
        #expect(stored[field] == maximum)
        for over in [maximum + 1, 9_000_000_000_000_000_000, Int64.max] {
            #expect(throws: ValidationError(field: field, reason: "must be at most \(maximum)")) {
                _ = try attempt(over)
            }
        }
    }

    @Test func canceledTripsHaveNoCompletionTime() throws {
        let trip = try validate(status: .canceled, completed: nil)
        #expect(trip.details.completedAt == nil)
    }

    @Test func currencyCodesAreISO4217() {
        #expect(CurrencyCode("JPY") != nil)
        #expect(CurrencyCode("usd") == nil)
        #expect(CurrencyCode("XYZ") == nil)
        #expect(CurrencyCode("EURO") == nil)
    }

    @Test func fingerprintChangesWithAnyField() throws {
        let base = try validate()
        #expect(base.fingerprint != (try validate(distance: 11)).fingerprint)
        #expect(base.fingerprint != (try validate(amount: 101)).fingerprint)
        #expect(base.fingerprint != (try validate(started: 61)).fingerprint)
    }

    @Test func dateRangeIsHalfOpenAndRejectsEmptyRanges() throws {
        let range = try DateRange(from: requested, to: requested.addingTimeInterval(10))
        #expect(range.contains(requested))
        #expect(!range.contains(requested.addingTimeInterval(10)))
        #expect(throws: DateRangeError.empty) { _ = try DateRange(from: requested, to: requested) }
    }

    @Test func timestampsRoundTripAtMicrosecondPrecision() {
        let micros: Int64 = 1_772_400_000_123_457
        #expect(Timestamp.micros(Timestamp.date(micros: micros)) == micros)
        #expect(PageLimit(0) == nil && PageLimit(101) == nil && PageLimit(100) != nil)
    }
}
