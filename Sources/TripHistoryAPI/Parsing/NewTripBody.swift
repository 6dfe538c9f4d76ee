import Foundation
import TripHistoryDomain

/// The JSON body of `POST /v1/trips`, as sent. Decoding checks only shapes and types (400 on failure);
/// `newTrip()` then applies the domain's rules (422 on failure).
struct NewTripBody: Decodable {
    struct PlaceBody: Decodable {
        let lat: Double
        let lon: Double
        let address: String
    }

    struct FareBody: Decodable {
        let amountMinor: Int64
        let currency: String
        let breakdown: [FareLineBody]?

        enum CodingKeys: String, CodingKey {
            case amountMinor = "amount_minor"
            case currency, breakdown
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            amountMinor = try container.decode(Int64.self, forKey: .amountMinor)
            currency = try container.decode(String.self, forKey: .currency)
            breakdown = try container.decodeUnlessAbsent([FareLineBody].self, forKey: .breakdown)
        }
    }

    struct FareLineBody: Decodable {
        let kind: String
        let amountMinor: Int64

        enum CodingKeys: String, CodingKey {
            case kind
            case amountMinor = "amount_minor"
        }
    }

    struct PaymentBody: Decodable {
        let method: String
        let brand: String?
        let last4: String?

        enum CodingKeys: String, CodingKey {
            case method, brand, last4
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            method = try container.decode(String.self, forKey: .method)
            brand = try container.decodeUnlessAbsent(String.self, forKey: .brand)
            last4 = try container.decodeUnlessAbsent(String.self, forKey: .last4)
        }
    }

    struct DriverBody: Decodable {
        struct VehicleBody: Decodable {
            let make: String
            let model: String
            let color: String
            let plate: String
        }

        let firstName: String
        let vehicle: VehicleBody?

        enum CodingKeys: String, CodingKey {
            case firstName = "first_name"
            case vehicle
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            firstName = try container.decode(String.self, forKey: .firstName)
            vehicle = try container.decodeUnlessAbsent(VehicleBody.self, forKey: .vehicle)
        }
    }

    struct RouteBody: Decodable {
        let polyline: String
    }

    let riderID: String
    let status: String
    let product: String
    let city: String
    let timeZone: String
    let requestedAt: String
    let startedAt: String
    let completedAt: String?
    let pickup: PlaceBody
    let dropoff: PlaceBody
    let distanceMeters: Int64
    let durationSeconds: Int64
    let fare: FareBody
    let payment: PaymentBody?
    let driver: DriverBody?
    let route: RouteBody?

    enum CodingKeys: String, CodingKey {
        case riderID = "rider_id"
        case status, product, city, pickup, dropoff, fare, payment, driver, route
        case timeZone = "time_zone"
        case requestedAt = "requested_at"
        case startedAt = "started_at"
        case completedAt = "completed_at"
        case distanceMeters = "distance_m"
        case durationSeconds = "duration_s"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // Ids are decimal strings in this API; a bare integer is accepted too, as clients often send one.
        if let text = try? container.decode(String.self, forKey: .riderID) {
            riderID = text
        } else {
            riderID = String(try container.decode(Int64.self, forKey: .riderID))
        }
        status = try container.decode(String.self, forKey: .status)
        product = try container.decode(String.self, forKey: .product)
        city = try container.decode(String.self, forKey: .city)
        timeZone = try container.decode(String.self, forKey: .timeZone)
        requestedAt = try container.decode(String.self, forKey: .requestedAt)
        startedAt = try container.decode(String.self, forKey: .startedAt)
        completedAt = try container.decodeIfPresent(String.self, forKey: .completedAt)
        pickup = try container.decode(PlaceBody.self, forKey: .pickup)
        dropoff = try container.decode(PlaceBody.self, forKey: .dropoff)
        distanceMeters = try container.decode(Int64.self, forKey: .distanceMeters)
        durationSeconds = try container.decode(Int64.self, forKey: .durationSeconds)
        fare = try container.decode(FareBody.self, forKey: .fare)
        payment = try container.decodeUnlessAbsent(PaymentBody.self, forKey: .payment)
        driver = try container.decodeUnlessAbsent(DriverBody.self, forKey: .driver)
        route = try container.decodeUnlessAbsent(RouteBody.self, forKey: .route)
    }

    /// Decodes `bytes`, reporting the first missing or mistyped field by its JSON path, and refusing a body
    /// with a card number in any of its strings.
    static func decode(_ bytes: [UInt8], decoder: JSONDecoder) throws(Problem) -> NewTripBody {
        try JSONRequestBody.decode(NewTripBody.self, bytes, decoder: decoder, what: "a trip")
    }

    /// The domain's new trip, or a 422 naming the field that breaks a rule.
    func newTrip() throws(Problem) -> NewTrip {
        guard let rider = RiderID(riderID) else {
            throw Problem.invalidField("rider_id", "rider_id must be a positive integer written in decimal.")
        }
        guard let tripStatus = TripStatus(rawValue: status) else {
            throw Problem.invalidField("status", "status must be one of: completed, canceled.")
        }
        let requested = try Self.timestamp(requestedAt, field: "requested_at")
        let started = try Self.timestamp(startedAt, field: "started_at")
        let completed = try completedAt.map { text throws(Problem) in try Self.timestamp(text, field: "completed_at") }
        guard let currency = CurrencyCode(fare.currency) else {
            throw Problem.invalidField("fare.currency", "fare.currency must be an ISO 4217 code such as USD.")
        }
        let receipt = try receipt()
        do {
            return try NewTrip.validated(
                riderID: rider, status: tripStatus, product: product, city: city, timeZone: timeZone,
                requestedAt: requested, startedAt: started, completedAt: completed,
                pickup: Place(latitude: pickup.lat, longitude: pickup.lon, address: pickup.address),
                dropoff: Place(latitude: dropoff.lat, longitude: dropoff.lon, address: dropoff.address),
                distanceMeters: distanceMeters, durationSeconds: durationSeconds,
                fare: Money(amountMinor: fare.amountMinor, currency: currency),
                receipt: receipt
            )
        } catch {
            throw Problem.invalidField(error.field, "\(error.field) \(error.reason).")
        }
    }

    /// The receipt's parts as sent, each checked for its shape; the domain checks their rules.
    private func receipt() throws(Problem) -> TripReceipt {
        var lines: [FareLine]?
        if let breakdown = fare.breakdown {
            lines = []
            for (index, line) in breakdown.enumerated() {
                guard let kind = FareLineKind(rawValue: line.kind) else {
                    throw Problem.invalidField(
                        "fare.breakdown[\(index)].kind",
                        "fare.breakdown[\(index)].kind must be one of: "
                            + FareLineKind.allCases.map(\.rawValue).joined(separator: ", ") + ".")
                }
                lines?.append(FareLine(kind: kind, amountMinor: line.amountMinor))
            }
        }
        let paid = try payment.map { body throws(Problem) -> Payment in
            guard let method = PaymentMethod(rawValue: body.method) else {
                throw Problem.invalidField("payment.method", "payment.method must be one of: card, cash, wallet.")
            }
            return Payment(method: method, brand: body.brand, last4: body.last4)
        }
        let route = try self.route.map { body throws(Problem) -> EncodedRoute in
            do {
                return try EncodedRoute.validated(body.polyline)
            } catch {
                throw Problem.invalidField(
                    "route.polyline",
                    "route.polyline must be an encoded polyline (precision 5) of \(EncodedRoute.pointCount.lowerBound) "
                        + "to \(EncodedRoute.pointCount.upperBound) valid points, at most \(EncodedRoute.maximumBytes) bytes."
                )
            }
        }
        let driver = self.driver.map { body in
            Driver(
                firstName: body.firstName,
                vehicle: body.vehicle.map { Vehicle(make: $0.make, model: $0.model, color: $0.color, plate: $0.plate) })
        }
        return TripReceipt(breakdown: lines, payment: paid, driver: driver, route: route)
    }

    private static func timestamp(_ text: String, field: String) throws(Problem) -> Date {
        guard let date = RFC3339.parseTimestamp(text) else {
            throw Problem.invalidField(field, "\(field) must be an RFC 3339 timestamp with an offset.")
        }
        return date
    }
}

extension KeyedDecodingContainer {
    /// An optional member's value, nil when it is absent. An explicit `null` is decoded as the type, and so
    /// refused like a missing value: the document describes these members as objects and strings, never null.
    fileprivate func decodeUnlessAbsent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key) else { return nil }
        return try decode(T.self, forKey: key)
    }
}
